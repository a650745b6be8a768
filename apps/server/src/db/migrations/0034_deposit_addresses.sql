CREATE TABLE "deposit_addresses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deposit_addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"currency" text NOT NULL,
	"network" text NOT NULL,
	"order_id" text NOT NULL,
	"wallet_uuid" text,
	"address" text,
	"payment_url" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."wallets" (
	"uuid" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"data" jsonb NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "sandbox"."wallets_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
DROP INDEX "sandbox"."sandbox_invoices_order_id_key";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "deposit_address_id" integer;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_order_id_key" ON "deposit_addresses" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_user_coin_key" ON "deposit_addresses" USING btree ("user_id","provider","currency","network");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_wallets_order_id_key" ON "sandbox"."wallets" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_deposit_address_id_deposit_addresses_id_fk" FOREIGN KEY ("deposit_address_id") REFERENCES "public"."deposit_addresses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_invoices_order_id_idx" ON "sandbox"."invoices" USING btree ("order_id");
CREATE TABLE "payment_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"payment_id" integer,
	"order_id" text NOT NULL,
	"provider_payment_id" text,
	"source" text NOT NULL,
	"status" text NOT NULL,
	"is_final" boolean NOT NULL,
	"amount_cents" bigint,
	"paid_amount_usd_cents" bigint,
	"raw_body" text,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_events_source_known" CHECK ("payment_events"."source" in ('webhook', 'poll'))
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"order_id" text NOT NULL,
	"provider_payment_id" text,
	"amount_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"provider_status" text,
	"payment_url" text,
	"credited_cents" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"credited_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_cents" > 0),
	CONSTRAINT "payments_credited_positive" CHECK ("payments"."credited_cents" is null or "payments"."credited_cents" > 0),
	CONSTRAINT "payments_status_known" CHECK ("payments"."status" in ('pending', 'completed', 'underpaid', 'canceled', 'failed', 'expired'))
);
--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_events_payment_idx" ON "payment_events" USING btree ("payment_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_order_id_key" ON "payments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_payment_id_key" ON "payments" USING btree ("provider_payment_id");--> statement-breakpoint
CREATE INDEX "payments_user_idx" ON "payments" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("last_checked_at") WHERE "payments"."status" = 'pending';
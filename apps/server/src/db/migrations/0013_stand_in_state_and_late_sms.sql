CREATE SCHEMA "sandbox";
--> statement-breakpoint
CREATE SCHEMA "sim";
--> statement-breakpoint
CREATE TABLE "sandbox"."invoices" (
	"uuid" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"data" jsonb NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "sandbox"."invoices_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "sim"."accounts" (
	"instance" text PRIMARY KEY NOT NULL,
	"next_activation_id" bigint NOT NULL,
	"next_rent_id" bigint NOT NULL,
	"balance_usd" double precision NOT NULL,
	"sold" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim"."orders" (
	"instance" text NOT NULL,
	"kind" text NOT NULL,
	"id" text NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "orders_instance_kind_id_pk" PRIMARY KEY("instance","kind","id")
);
--> statement-breakpoint
ALTER TABLE "activation_messages" ADD COLUMN "late" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_invoices_order_id_key" ON "sandbox"."invoices" USING btree ("order_id");
CREATE TABLE "reconciliation_days" (
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"complete" boolean NOT NULL,
	"ran_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reconciliation_days_provider_day_pk" PRIMARY KEY("provider","day")
);
--> statement-breakpoint
CREATE TABLE "reconciliation_mismatches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reconciliation_mismatches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"order_kind" text NOT NULL,
	"provider_order_id" text NOT NULL,
	"order_id" integer,
	"cause" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"note" text,
	"found_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reconciliation_mismatches_amount_positive" CHECK ("reconciliation_mismatches"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "supplier_charges" (
	"provider" text NOT NULL,
	"order_kind" text NOT NULL,
	"provider_order_id" text NOT NULL,
	"order_id" integer,
	"bought_at" timestamp with time zone NOT NULL,
	"charged_cents" bigint,
	"returned_cents" bigint DEFAULT 0 NOT NULL,
	"state" text NOT NULL,
	"has_code" boolean DEFAULT false NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "supplier_charges_provider_order_kind_provider_order_id_pk" PRIMARY KEY("provider","order_kind","provider_order_id")
);
--> statement-breakpoint
CREATE INDEX "reconciliation_mismatches_day_idx" ON "reconciliation_mismatches" USING btree ("provider","day");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_mismatches_order_key" ON "reconciliation_mismatches" USING btree ("provider","order_kind","provider_order_id");--> statement-breakpoint
CREATE INDEX "supplier_charges_day_idx" ON "supplier_charges" USING btree ("provider","bought_at");--> statement-breakpoint
CREATE INDEX "supplier_charges_order_idx" ON "supplier_charges" USING btree ("order_kind","order_id");
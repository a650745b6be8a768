CREATE TABLE "rent_renewals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rent_renewals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rent_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"hours" integer NOT NULL,
	"price_cents" bigint NOT NULL,
	"upstream_cost" numeric(14, 6) NOT NULL,
	"automatic" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"previous_ends_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rent_renewals_price_positive" CHECK ("rent_renewals"."price_cents" > 0),
	CONSTRAINT "rent_renewals_hours_positive" CHECK ("rent_renewals"."hours" > 0),
	CONSTRAINT "rent_renewals_status_known" CHECK ("rent_renewals"."status" in ('pending', 'done', 'failed', 'refunded'))
);
--> statement-breakpoint
CREATE TABLE "rent_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rent_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"rent_id" integer NOT NULL,
	"sender" text NOT NULL,
	"text" text NOT NULL,
	"code" text,
	"received_at" timestamp with time zone NOT NULL,
	"dedupe_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_rent_id" text,
	"country_id" text NOT NULL,
	"service_key" text NOT NULL,
	"service" text NOT NULL,
	"phone_number" text,
	"period_unit" text NOT NULL,
	"period_count" integer NOT NULL,
	"hours" integer NOT NULL,
	"auto_renew" boolean DEFAULT false NOT NULL,
	"auto_renew_error" text,
	"auto_renew_attempted_for" timestamp with time zone,
	"price_cents" bigint NOT NULL,
	"upstream_cost" numeric(14, 6) NOT NULL,
	"status" text NOT NULL,
	"status_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"last_synced_at" timestamp with time zone,
	"upstream_closed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rents_price_positive" CHECK ("rents"."price_cents" > 0),
	CONSTRAINT "rents_hours_positive" CHECK ("rents"."hours" > 0 and "rents"."period_count" > 0),
	CONSTRAINT "rents_status_known" CHECK ("rents"."status" in ('pending', 'active', 'renewed', 'canceled', 'expired', 'failed')),
	CONSTRAINT "rents_period_unit_known" CHECK ("rents"."period_unit" in ('hour', 'week', 'month'))
);
--> statement-breakpoint
ALTER TABLE "rent_renewals" ADD CONSTRAINT "rent_renewals_rent_id_rents_id_fk" FOREIGN KEY ("rent_id") REFERENCES "public"."rents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rent_renewals" ADD CONSTRAINT "rent_renewals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rent_messages" ADD CONSTRAINT "rent_messages_rent_id_rents_id_fk" FOREIGN KEY ("rent_id") REFERENCES "public"."rents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rents" ADD CONSTRAINT "rents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rent_renewals_rent_idx" ON "rent_renewals" USING btree ("rent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rent_renewals_one_pending_key" ON "rent_renewals" USING btree ("rent_id") WHERE "rent_renewals"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "rent_messages_dedupe_key" ON "rent_messages" USING btree ("rent_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "rent_messages_rent_idx" ON "rent_messages" USING btree ("rent_id","received_at");--> statement-breakpoint
CREATE INDEX "rents_user_idx" ON "rents" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "rents_provider_rent_key" ON "rents" USING btree ("provider","provider_rent_id") WHERE "rents"."provider_rent_id" is not null;--> statement-breakpoint
CREATE INDEX "rents_live_ends_idx" ON "rents" USING btree ("ends_at") WHERE "rents"."status" in ('active', 'renewed');--> statement-breakpoint
CREATE INDEX "rents_live_sync_idx" ON "rents" USING btree ("last_synced_at" NULLS FIRST,"id") WHERE "rents"."status" in ('active', 'renewed');--> statement-breakpoint
CREATE INDEX "rents_pending_idx" ON "rents" USING btree ("created_at") WHERE "rents"."status" = 'pending';
CREATE TABLE "active_users_daily" (
	"day" date NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "active_users_daily_day_user_id_pk" PRIMARY KEY("day","user_id")
);
--> statement-breakpoint
CREATE TABLE "business_hours" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"sales_cents" bigint NOT NULL,
	"refunds_cents" bigint NOT NULL,
	"cost_cents" bigint NOT NULL,
	"topups_cents" bigint NOT NULL,
	"orders_with_code" integer NOT NULL,
	"orders_refunded" integer NOT NULL,
	"orders_canceled" integer NOT NULL,
	"active_users" integer NOT NULL,
	"time_to_code" integer[] NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ledger_entries_created_idx" ON "ledger_entries" USING btree ("created_at");
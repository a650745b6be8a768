CREATE TABLE "delivery_days" (
	"day" date NOT NULL,
	"service" text NOT NULL,
	"country_id" text NOT NULL,
	"finished" integer NOT NULL,
	"settled" integer NOT NULL,
	"with_code" integer NOT NULL,
	"refunded" integer NOT NULL,
	"time_to_code_seconds" integer[] NOT NULL,
	CONSTRAINT "delivery_days_day_service_country_id_pk" PRIMARY KEY("day","service","country_id")
);
--> statement-breakpoint
CREATE TABLE "delivery_days_frozen" (
	"day" date PRIMARY KEY NOT NULL,
	"frozen_at" timestamp with time zone NOT NULL,
	"pairs" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "delivery_days_service_idx" ON "delivery_days" USING btree ("service","day");--> statement-breakpoint
-- The index's history is a record, never edited (issue 30: "an administrator cannot edit them"): the same
-- guards as the ledger's (0001, 0025): row triggers refuse updates and deletes, statement triggers TRUNCATE,
-- and an application role that does not own the tables loses TRUNCATE.
CREATE FUNCTION delivery_days_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER delivery_days_append_only
  BEFORE UPDATE OR DELETE ON delivery_days
  FOR EACH ROW EXECUTE FUNCTION delivery_days_refuse_change();
--> statement-breakpoint
CREATE TRIGGER delivery_days_frozen_append_only
  BEFORE UPDATE OR DELETE ON delivery_days_frozen
  FOR EACH ROW EXECUTE FUNCTION delivery_days_refuse_change();
--> statement-breakpoint
CREATE TRIGGER delivery_days_no_truncate BEFORE TRUNCATE ON delivery_days
  FOR EACH STATEMENT EXECUTE FUNCTION simcode_refuse_truncate();
--> statement-breakpoint
CREATE TRIGGER delivery_days_frozen_no_truncate BEFORE TRUNCATE ON delivery_days_frozen
  FOR EACH STATEMENT EXECUTE FUNCTION simcode_refuse_truncate();
--> statement-breakpoint
DO $$
DECLARE
  tbl text;
BEGIN
  FOREACH tbl IN ARRAY ARRAY['delivery_days', 'delivery_days_frozen'] LOOP
    IF (SELECT tableowner FROM pg_tables WHERE schemaname = 'public' AND tablename = tbl) <> current_user THEN
      EXECUTE format('REVOKE TRUNCATE ON %I FROM %I', tbl, current_user);
    END IF;
  END LOOP;
END
$$;

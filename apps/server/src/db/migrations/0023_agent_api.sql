ALTER TABLE "api_idempotency_keys" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "api_idempotency_keys" ADD COLUMN "response_status" integer;--> statement-breakpoint
ALTER TABLE "api_idempotency_keys" ADD COLUMN "response_body" jsonb;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scope" text DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "max_price_cents" bigint;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "min_delivery_rate" double precision;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "stop_after_failures" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "failures_in_a_row" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scope_known" CHECK ("api_keys"."scope" in ('full', 'read', 'buy'));--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_guards_valid" CHECK (coalesce("api_keys"."max_price_cents", 1) > 0 and coalesce("api_keys"."min_delivery_rate", 0) between 0 and 1 and coalesce("api_keys"."stop_after_failures", 1) > 0);--> statement-breakpoint
-- A key's streak of orders that ended without a code, kept by the database whichever path ended them (the
-- sync, a cancel, support): a code resets it, and reaching the key's stop_after_failures pauses the key.
CREATE FUNCTION simcode_api_key_streak() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'received' THEN
    UPDATE api_keys SET failures_in_a_row = 0 WHERE id = NEW.api_key_id AND failures_in_a_row <> 0;
  ELSIF NEW.status IN ('expired', 'canceled') AND OLD.status IN ('pending', 'waiting') THEN
    UPDATE api_keys SET failures_in_a_row = failures_in_a_row + 1,
      paused_at = CASE
        WHEN paused_at IS NULL AND stop_after_failures IS NOT NULL AND failures_in_a_row + 1 >= stop_after_failures
        THEN now() ELSE paused_at END
      WHERE id = NEW.api_key_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER activations_api_key_streak AFTER UPDATE OF status ON activations
  FOR EACH ROW WHEN (NEW.api_key_id IS NOT NULL AND NEW.status IS DISTINCT FROM OLD.status)
  EXECUTE FUNCTION simcode_api_key_streak();

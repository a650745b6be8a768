CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"user_agent" text,
	"address" text,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "activation_messages" ADD COLUMN "source_address" text;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "repeat_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "last_received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rent_messages" ADD COLUMN "source_address" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id","expires_at");--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_dedupe_key_unique" UNIQUE("dedupe_key");--> statement-breakpoint
-- A revoked session must stop working on every instance at once: they cache who a token belongs to, and
-- the database tells them (as users_account_changed does for roles and token versions).
CREATE FUNCTION sessions_notify_revocation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('simcode_user_events', json_build_object('userId', NEW.user_id, 'type', 'account')::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_revoked
  AFTER UPDATE OF revoked_at ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION sessions_notify_revocation();

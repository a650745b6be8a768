CREATE TABLE "activation_retry_requests" (
	"activation_id" integer PRIMARY KEY NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"messages_before" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_idempotency_keys" (
	"api_key_id" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"activation_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "api_idempotency_keys_api_key_id_idempotency_key_pk" PRIMARY KEY("api_key_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "api_key_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "api_key_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"api_key_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"detail" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "api_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"allowed_ips" text[] DEFAULT '{}'::text[] NOT NULL,
	"daily_cap_cents" bigint,
	"total_cap_cents" bigint,
	"max_active_orders" integer,
	"callback_url" text,
	"webhook_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_caps_positive" CHECK (coalesce("api_keys"."daily_cap_cents", 1) > 0 and coalesce("api_keys"."total_cap_cents", 1) > 0 and coalesce("api_keys"."max_active_orders", 1) > 0)
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"api_key_id" integer NOT NULL,
	"kind" text NOT NULL,
	"message_id" bigint,
	"body" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activations" ADD COLUMN "api_key_id" integer;--> statement-breakpoint
ALTER TABLE "rents" ADD COLUMN "api_key_id" integer;--> statement-breakpoint
ALTER TABLE "api_idempotency_keys" ADD CONSTRAINT "api_idempotency_keys_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_events" ADD CONSTRAINT "api_key_events_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_key_events_key_idx" ON "api_key_events" USING btree ("api_key_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_key_idx" ON "webhook_deliveries" USING btree ("api_key_id","id");--> statement-breakpoint
CREATE INDEX "activations_api_key_idx" ON "activations" USING btree ("api_key_id","created_at") WHERE "activations"."api_key_id" is not null;--> statement-breakpoint
CREATE INDEX "rents_api_key_idx" ON "rents" USING btree ("api_key_id","created_at") WHERE "rents"."api_key_id" is not null;--> statement-breakpoint
-- The customer-webhook outbox is written in the transaction that stores an SMS, whichever path stored it
-- (the upstream's webhook or the sync job): an SMS of an API order whose key has a callback URL gets a row,
-- due at once ('epoch': the delivery job compares with the application's clock, not the database's).
CREATE FUNCTION simcode_enqueue_customer_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  key_id integer;
BEGIN
  IF TG_TABLE_NAME = 'activation_messages' THEN
    SELECT k.id INTO key_id FROM activations a JOIN api_keys k ON k.id = a.api_key_id
      WHERE a.id = NEW.activation_id AND k.callback_url IS NOT NULL AND k.revoked_at IS NULL;
    IF key_id IS NOT NULL THEN
      INSERT INTO webhook_deliveries (api_key_id, kind, message_id, next_attempt_at) VALUES (key_id, 'activation_sms', NEW.id, 'epoch');
    END IF;
  ELSE
    SELECT k.id INTO key_id FROM rents r JOIN api_keys k ON k.id = r.api_key_id
      WHERE r.id = NEW.rent_id AND k.callback_url IS NOT NULL AND k.revoked_at IS NULL;
    IF key_id IS NOT NULL THEN
      INSERT INTO webhook_deliveries (api_key_id, kind, message_id, next_attempt_at) VALUES (key_id, 'rent_sms', NEW.id, 'epoch');
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER activation_messages_customer_webhook AFTER INSERT ON activation_messages
  FOR EACH ROW EXECUTE FUNCTION simcode_enqueue_customer_webhook();
--> statement-breakpoint
CREATE TRIGGER rent_messages_customer_webhook AFTER INSERT ON rent_messages
  FOR EACH ROW EXECUTE FUNCTION simcode_enqueue_customer_webhook();

-- Rents' provider calls are kept beside the activations': one history table for both kinds of order.
ALTER TABLE "activation_events" RENAME TO "order_events";--> statement-breakpoint
ALTER SEQUENCE "activation_events_id_seq" RENAME TO "order_events_id_seq";--> statement-breakpoint
ALTER TABLE "order_events" DROP CONSTRAINT "activation_events_activation_id_activations_id_fk";--> statement-breakpoint
ALTER TABLE "order_events" RENAME COLUMN "activation_id" TO "order_id";--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "order_kind" text DEFAULT 'activation' NOT NULL;--> statement-breakpoint
ALTER INDEX "activation_events_pkey" RENAME TO "order_events_pkey";--> statement-breakpoint
DROP INDEX "activation_events_activation_idx";--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_kind","order_id","id");--> statement-breakpoint
ALTER TABLE "activations" ADD COLUMN "given_back_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rent_renewals" ADD COLUMN "api_key_id" integer;--> statement-breakpoint
-- Until now a renewal counted against the caps of the key its rent was bought with: it keeps counting there.
UPDATE "rent_renewals" SET "api_key_id" = r."api_key_id" FROM "rents" r WHERE r."id" = "rent_renewals"."rent_id" AND r."api_key_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "rent_messages" ADD COLUMN "late" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "rent_renewals_api_key_idx" ON "rent_renewals" USING btree ("api_key_id","created_at") WHERE "rent_renewals"."api_key_id" is not null;--> statement-breakpoint
-- An SMS that arrives after its order or rent ended is kept for audit only: no customer webhook for it.
CREATE OR REPLACE FUNCTION simcode_enqueue_customer_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  key_id integer;
BEGIN
  IF NEW.late THEN
    RETURN NULL;
  END IF;
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

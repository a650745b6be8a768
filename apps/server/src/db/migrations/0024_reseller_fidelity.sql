ALTER TABLE "activation_messages" ADD COLUMN "sender" text;--> statement-breakpoint
ALTER TABLE "rents" ADD COLUMN "webhook_url" text;--> statement-breakpoint
-- A rent's SMS go to the URL its buyer gave with the rent (getRentNumber&url=), or else to the key's callback
-- URL; an activation's to the key's. An SMS that arrives after its order or rent ended is kept for audit only:
-- no customer webhook for it.
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
      WHERE r.id = NEW.rent_id AND (r.webhook_url IS NOT NULL OR k.callback_url IS NOT NULL) AND k.revoked_at IS NULL;
    IF key_id IS NOT NULL THEN
      INSERT INTO webhook_deliveries (api_key_id, kind, message_id, next_attempt_at) VALUES (key_id, 'rent_sms', NEW.id, 'epoch');
    END IF;
  END IF;
  RETURN NULL;
END
$$;

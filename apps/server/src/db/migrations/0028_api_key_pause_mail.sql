ALTER TABLE "mail_queue" DROP CONSTRAINT "mail_queue_template_known";--> statement-breakpoint
ALTER TABLE "mail_queue" ADD CONSTRAINT "mail_queue_template_known" CHECK ("mail_queue"."template" in ('password_reset', 'email_change', 'email_change_requested', 'email_changed', 'api_key_created', 'api_key_paused', 'topup_receipt', 'code_received'));--> statement-breakpoint
-- The streak as before, and the owner is mailed in the same transaction when the key pauses: the pause is
-- the update that moves paused_at from null, so each pause mails once, and a resume (null again) arms it.
CREATE OR REPLACE FUNCTION simcode_api_key_streak() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'received' THEN
    UPDATE api_keys SET failures_in_a_row = 0 WHERE id = NEW.api_key_id AND failures_in_a_row <> 0;
  ELSIF NEW.status IN ('expired', 'canceled') AND OLD.status IN ('pending', 'waiting') THEN
    UPDATE api_keys SET failures_in_a_row = failures_in_a_row + 1 WHERE id = NEW.api_key_id;
    WITH paused AS (
      UPDATE api_keys SET paused_at = now()
        WHERE id = NEW.api_key_id AND paused_at IS NULL AND revoked_at IS NULL
          AND stop_after_failures IS NOT NULL AND failures_in_a_row >= stop_after_failures
        RETURNING id, user_id, name, prefix, failures_in_a_row
    )
    INSERT INTO mail_queue (user_id, template, payload)
      SELECT user_id, 'api_key_paused',
        jsonb_build_object('keyId', id, 'name', name, 'prefix', prefix, 'failures', failures_in_a_row)
      FROM paused;
  END IF;
  RETURN NULL;
END
$$;

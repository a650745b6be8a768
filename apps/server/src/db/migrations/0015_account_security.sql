CREATE TABLE "account_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"new_email" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "account_links_purpose_known" CHECK ("account_links"."purpose" in ('password_reset', 'email_change'))
);
--> statement-breakpoint
CREATE TABLE "mail_queue" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mail_queue_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"to_address" text,
	"template" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "mail_queue_template_known" CHECK ("mail_queue"."template" in ('password_reset', 'email_change', 'topup_receipt', 'code_received'))
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recovery_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_pending_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "code_emails" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "account_links" ADD CONSTRAINT "account_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_queue" ADD CONSTRAINT "mail_queue_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_links_user_idx" ON "account_links" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE INDEX "mail_queue_due_idx" ON "mail_queue" USING btree ("next_attempt_at") WHERE "mail_queue"."sent_at" is null and "mail_queue"."failed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_user_code_key" ON "recovery_codes" USING btree ("user_id","code_hash");--> statement-breakpoint
-- A receipt for every credited top-up, in the transaction that credits it: whichever path credits (the
-- webhook, the reconciler, support), the receipt cannot be forgotten or sent for money that did not arrive.
CREATE FUNCTION ledger_queue_topup_receipt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO mail_queue (user_id, template, payload)
  VALUES (
    NEW.user_id,
    'topup_receipt',
    jsonb_build_object(
      'entryId', NEW.id,
      'amountCents', NEW.amount_cents,
      'balanceAfterCents', NEW.balance_after_cents,
      'orderId', (SELECT p.order_id FROM payments p WHERE NEW.reference_type = 'payment' AND p.id::text = NEW.reference_id),
      'createdAt', NEW.created_at
    )
  );
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_topup_receipt
  AFTER INSERT ON ledger_entries
  FOR EACH ROW WHEN (NEW.kind = 'topup')
  EXECUTE FUNCTION ledger_queue_topup_receipt();
--> statement-breakpoint
-- 'Your number received a code', for users who asked for it, in the transaction that stores the code.
CREATE FUNCTION activation_messages_queue_code_mail() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO mail_queue (user_id, template, payload)
  SELECT a.user_id, 'code_received', jsonb_build_object(
    'activationId', a.id,
    'service', a.service,
    'countryId', a.country_id,
    'phoneNumber', a.phone_number,
    'code', NEW.code
  )
  FROM activations a JOIN users u ON u.id = a.user_id
  WHERE a.id = NEW.activation_id AND u.code_emails;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER activation_messages_code_mail
  AFTER INSERT ON activation_messages
  FOR EACH ROW WHEN (NOT NEW.late AND NEW.code IS NOT NULL)
  EXECUTE FUNCTION activation_messages_queue_code_mail();

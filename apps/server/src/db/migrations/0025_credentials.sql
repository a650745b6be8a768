CREATE TABLE "second_factor_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "second_factor_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"scope" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "two_factor_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"credential_version" integer NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "account_links" DROP CONSTRAINT "account_links_purpose_known";--> statement-breakpoint
ALTER TABLE "mail_queue" DROP CONSTRAINT "mail_queue_template_known";--> statement-breakpoint
ALTER TABLE "account_links" ADD COLUMN "credential_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "credential_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "two_factor_challenges" ADD CONSTRAINT "two_factor_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "second_factor_failures_scope_idx" ON "second_factor_failures" USING btree ("scope","at");--> statement-breakpoint
CREATE INDEX "two_factor_challenges_user_idx" ON "two_factor_challenges" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "account_links" ADD CONSTRAINT "account_links_purpose_known" CHECK ("account_links"."purpose" in ('password_reset', 'email_change', 'email_revert'));--> statement-breakpoint
ALTER TABLE "mail_queue" ADD CONSTRAINT "mail_queue_template_known" CHECK ("mail_queue"."template" in ('password_reset', 'email_change', 'email_change_requested', 'email_changed', 'api_key_created', 'topup_receipt', 'code_received'));--> statement-breakpoint
-- A revocation moves the credential stamp: every instance forgets the user's identity and closes their
-- live-update streams whose session ended, as it does for roles and token versions.
DROP TRIGGER users_account_changed ON users;--> statement-breakpoint
CREATE TRIGGER users_account_changed
  AFTER UPDATE OF role, token_version, credential_version, blocked_at OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION users_notify_account_change();--> statement-breakpoint
-- TRUNCATE is not a row event: the append-only row triggers of the ledger and the audit log never see it.
-- A statement trigger refuses it for every role that is subject to triggers.
CREATE FUNCTION simcode_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: TRUNCATE is refused', TG_TABLE_NAME;
END;
$$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION simcode_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION simcode_refuse_truncate();--> statement-breakpoint
-- Where the application's role does not own the tables (the recommended production set-up), it also loses
-- the TRUNCATE privilege itself. An owner keeps what owners keep (it could drop the triggers): see ADR 0022.
DO $$
DECLARE
  tbl text;
BEGIN
  FOREACH tbl IN ARRAY ARRAY['ledger_entries', 'audit_log'] LOOP
    IF (SELECT tableowner FROM pg_tables WHERE schemaname = 'public' AND tablename = tbl) <> current_user THEN
      EXECUTE format('REVOKE TRUNCATE ON %I FROM %I', tbl, current_user);
    END IF;
  END LOOP;
END
$$;

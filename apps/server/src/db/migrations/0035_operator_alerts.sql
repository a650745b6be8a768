CREATE TABLE "alert_channels" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_channels_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"target" jsonb NOT NULL,
	"secret" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_channels_kind_known" CHECK ("alert_channels"."kind" in ('email', 'webhook', 'telegram'))
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"alert_id" bigint NOT NULL,
	"channel_id" integer NOT NULL,
	"event" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "alert_deliveries_event_known" CHECK ("alert_deliveries"."event" in ('opened', 'resolved'))
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_settings_single_row" CHECK ("alert_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "operator_alerts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_alerts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"condition_key" text NOT NULL,
	"kind" text NOT NULL,
	"summary" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"link" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "supplier_balance_readings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "supplier_balance_readings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"balance_cents" bigint NOT NULL,
	"read_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_queue" DROP CONSTRAINT "mail_queue_template_known";--> statement-breakpoint
ALTER TABLE "alert_channels" ADD CONSTRAINT "alert_channels_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_alert_id_operator_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."operator_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_channel_id_alert_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."alert_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_once_key" ON "alert_deliveries" USING btree ("alert_id","channel_id","event");--> statement-breakpoint
CREATE INDEX "alert_deliveries_due_idx" ON "alert_deliveries" USING btree ("next_attempt_at") WHERE "alert_deliveries"."sent_at" is null and "alert_deliveries"."failed_at" is null;--> statement-breakpoint
CREATE INDEX "alert_deliveries_channel_sent_idx" ON "alert_deliveries" USING btree ("channel_id","sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "operator_alerts_open_key" ON "operator_alerts" USING btree ("condition_key") WHERE "operator_alerts"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "operator_alerts_opened_idx" ON "operator_alerts" USING btree ("opened_at");--> statement-breakpoint
CREATE INDEX "supplier_balance_readings_provider_idx" ON "supplier_balance_readings" USING btree ("provider","read_at");--> statement-breakpoint
ALTER TABLE "mail_queue" ADD CONSTRAINT "mail_queue_template_known" CHECK ("mail_queue"."template" in ('password_reset', 'email_change', 'email_change_requested', 'email_changed', 'api_key_created', 'api_key_paused', 'topup_receipt', 'code_received', 'status_incident', 'operator_alert'));
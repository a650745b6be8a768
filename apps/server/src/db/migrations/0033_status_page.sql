CREATE TABLE "incident_updates" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "incident_updates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"incident_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"phase" text NOT NULL,
	"text_en" text NOT NULL,
	"text_ru" text NOT NULL,
	"text_zh" text NOT NULL,
	"author_id" integer,
	CONSTRAINT "incident_updates_phase_known" CHECK ("incident_updates"."phase" in ('investigating', 'identified', 'monitoring', 'resolved'))
);
--> statement-breakpoint
CREATE TABLE "incidents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "incidents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"component" text NOT NULL,
	"origin" text NOT NULL,
	"state" text NOT NULL,
	"title_en" text NOT NULL,
	"title_ru" text NOT NULL,
	"title_zh" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "incidents_state_known" CHECK ("incidents"."state" in ('open', 'resolved')),
	CONSTRAINT "incidents_origin_known" CHECK ("incidents"."origin" in ('automatic', 'manual')),
	CONSTRAINT "incidents_resolved_when_closed" CHECK (("incidents"."state" = 'resolved') = ("incidents"."resolved_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "status_checks" (
	"component" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"latency_ms" integer NOT NULL,
	"error" text,
	CONSTRAINT "status_checks_component_minute_pk" PRIMARY KEY("component","minute")
);
--> statement-breakpoint
CREATE TABLE "status_days" (
	"component" text NOT NULL,
	"day" date NOT NULL,
	"checks" integer NOT NULL,
	"passed" integer NOT NULL,
	CONSTRAINT "status_days_component_day_pk" PRIMARY KEY("component","day")
);
--> statement-breakpoint
CREATE TABLE "status_subscribers" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_queue" DROP CONSTRAINT "mail_queue_template_known";--> statement-breakpoint
ALTER TABLE "incident_updates" ADD CONSTRAINT "incident_updates_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_subscribers" ADD CONSTRAINT "status_subscribers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incident_updates_incident_idx" ON "incident_updates" USING btree ("incident_id","at");--> statement-breakpoint
CREATE INDEX "incidents_opened_idx" ON "incidents" USING btree ("opened_at");--> statement-breakpoint
CREATE UNIQUE INDEX "incidents_one_automatic_open" ON "incidents" USING btree ("component") WHERE "incidents"."state" = 'open' and "incidents"."origin" = 'automatic';--> statement-breakpoint
ALTER TABLE "mail_queue" ADD CONSTRAINT "mail_queue_template_known" CHECK ("mail_queue"."template" in ('password_reset', 'email_change', 'email_change_requested', 'email_changed', 'api_key_created', 'api_key_paused', 'topup_receipt', 'code_received', 'status_incident'));
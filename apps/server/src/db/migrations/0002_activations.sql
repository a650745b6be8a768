CREATE TABLE "activation_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activation_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"activation_id" integer NOT NULL,
	"code" text,
	"text" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"dedupe_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_activation_id" text,
	"country_id" text NOT NULL,
	"operator" text DEFAULT 'any' NOT NULL,
	"service" text NOT NULL,
	"phone_number" text,
	"price_cents" bigint NOT NULL,
	"upstream_max_price" numeric(14, 6) NOT NULL,
	"status" text NOT NULL,
	"status_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activations_price_positive" CHECK ("activations"."price_cents" > 0),
	CONSTRAINT "activations_status_known" CHECK ("activations"."status" in ('pending', 'waiting', 'received', 'completed', 'canceled', 'expired', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "catalog_snapshots" (
	"provider" text PRIMARY KEY NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activation_messages" ADD CONSTRAINT "activation_messages_activation_id_activations_id_fk" FOREIGN KEY ("activation_id") REFERENCES "public"."activations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activations" ADD CONSTRAINT "activations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activation_messages_dedupe_key" ON "activation_messages" USING btree ("activation_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "activations_user_idx" ON "activations" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "activations_provider_activation_key" ON "activations" USING btree ("provider","provider_activation_id") WHERE "activations"."provider_activation_id" is not null;--> statement-breakpoint
CREATE INDEX "activations_live_idx" ON "activations" USING btree ("status","expires_at") WHERE "activations"."status" in ('pending', 'waiting', 'received');
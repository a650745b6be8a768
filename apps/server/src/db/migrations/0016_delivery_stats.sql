CREATE TABLE "delivery_stats" (
	"provider" text NOT NULL,
	"service" text NOT NULL,
	"country_id" text NOT NULL,
	"operator" text NOT NULL,
	"orders" integer NOT NULL,
	"delivered" integer NOT NULL,
	"median_time_to_code_ms" integer,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "delivery_stats_provider_service_country_id_operator_pk" PRIMARY KEY("provider","service","country_id","operator")
);
--> statement-breakpoint
CREATE INDEX "activations_created_idx" ON "activations" USING btree ("created_at");
CREATE TABLE "provider_health_reports" (
	"instance" text NOT NULL,
	"provider" text NOT NULL,
	"calls" integer NOT NULL,
	"average_latency_ms" double precision,
	"error_rate" double precision NOT NULL,
	"no_numbers_rate" double precision NOT NULL,
	"cooling_until" timestamp with time zone,
	"recent_errors" jsonb NOT NULL,
	"reported_at" timestamp with time zone NOT NULL,
	CONSTRAINT "provider_health_reports_instance_provider_pk" PRIMARY KEY("instance","provider")
);

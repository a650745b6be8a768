CREATE TABLE "sandbox"."nowpayments_records" (
	"kind" text NOT NULL,
	"id" text NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "nowpayments_records_kind_id_pk" PRIMARY KEY("kind","id")
);

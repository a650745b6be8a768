CREATE TABLE "favourites" (
	"user_id" integer NOT NULL,
	"service" text NOT NULL,
	"country_id" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favourites_user_id_service_country_id_pk" PRIMARY KEY("user_id","service","country_id")
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "activation_id" integer;--> statement-breakpoint
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_activation_id_activations_id_fk" FOREIGN KEY ("activation_id") REFERENCES "public"."activations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_activation_key" ON "tickets" USING btree ("activation_id") WHERE "tickets"."activation_id" is not null;
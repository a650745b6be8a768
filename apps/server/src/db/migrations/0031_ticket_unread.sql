ALTER TABLE "tickets" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "owner_read_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "tickets_unread_idx" ON "tickets" USING btree ("user_id") WHERE "tickets"."deleted_at" is null and "tickets"."answered_at" > coalesce("tickets"."owner_read_at", '-infinity');--> statement-breakpoint
-- Tickets answered before the marker existed count as read: no one gets a flood of old answers marked new.
UPDATE "tickets" SET "answered_at" = "answers"."last_answer", "owner_read_at" = "answers"."last_answer"
FROM (
  SELECT "ticket_id", max("created_at") AS "last_answer" FROM "ticket_messages" WHERE "is_admin" GROUP BY "ticket_id"
) AS "answers"
WHERE "answers"."ticket_id" = "tickets"."id";

CREATE TABLE "ticket_totals" (
	"owner_id" integer PRIMARY KEY NOT NULL,
	"total" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "tickets_user_created_idx";--> statement-breakpoint
CREATE INDEX "tickets_user_created_idx" ON "tickets" USING btree ("user_id","created_at","id");--> statement-breakpoint
-- Statement triggers with transition tables: a bulk insert or delete updates each total once, not once per row.
CREATE FUNCTION simcode_count_tickets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ticket_totals (owner_id, total)
      SELECT user_id, count(*) FROM inserted_tickets GROUP BY user_id
      UNION ALL
      SELECT 0, count(*) FROM inserted_tickets HAVING count(*) > 0
    ON CONFLICT (owner_id) DO UPDATE SET total = ticket_totals.total + excluded.total;
  ELSE
    UPDATE ticket_totals SET total = ticket_totals.total - removed.n
    FROM (
      SELECT user_id AS owner_id, count(*) AS n FROM deleted_tickets GROUP BY user_id
      UNION ALL
      SELECT 0, count(*) FROM deleted_tickets
    ) AS removed
    WHERE ticket_totals.owner_id = removed.owner_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_count_inserted AFTER INSERT ON tickets
  REFERENCING NEW TABLE AS inserted_tickets FOR EACH STATEMENT EXECUTE FUNCTION simcode_count_tickets();
--> statement-breakpoint
CREATE TRIGGER tickets_count_deleted AFTER DELETE ON tickets
  REFERENCING OLD TABLE AS deleted_tickets FOR EACH STATEMENT EXECUTE FUNCTION simcode_count_tickets();
--> statement-breakpoint
INSERT INTO ticket_totals (owner_id, total)
  SELECT user_id, count(*) FROM tickets GROUP BY user_id
  UNION ALL
  SELECT 0, count(*) FROM tickets HAVING count(*) > 0;

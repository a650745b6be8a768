ALTER TABLE "tickets" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
-- Support deletes a ticket by setting deleted_at (audited with a reason): the totals count live tickets, so
-- a deletion takes it off them as the row's removal used to.
CREATE FUNCTION simcode_count_tickets_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH newly_deleted AS (
    SELECT n.user_id FROM new_tickets n JOIN old_tickets o ON o.id = n.id
    WHERE n.deleted_at IS NOT NULL AND o.deleted_at IS NULL
  )
  UPDATE ticket_totals SET total = ticket_totals.total - removed.n
  FROM (
    SELECT user_id AS owner_id, count(*) AS n FROM newly_deleted GROUP BY user_id
    UNION ALL
    SELECT 0, count(*) FROM newly_deleted
  ) AS removed
  WHERE ticket_totals.owner_id = removed.owner_id AND removed.n > 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_count_soft_deleted AFTER UPDATE ON tickets
  REFERENCING OLD TABLE AS old_tickets NEW TABLE AS new_tickets FOR EACH STATEMENT
  EXECUTE FUNCTION simcode_count_tickets_update();

-- Reasons become codes (ADR 0024): each English sentence the server stored becomes the code it was
-- written for; the catalogue words it in the reader's language. A sentence not listed here reads as written.
UPDATE "activations" SET "status_reason" = CASE "status_reason"
  WHEN 'Canceled by you. The price was returned to your balance.' THEN 'canceled_by_user'
  WHEN 'No SMS arrived within 20 minutes. The price was returned to your balance.' THEN 'expired'
  WHEN 'The provider withdrew this number before any SMS arrived. The price was returned to your balance.' THEN 'withdrawn'
  WHEN 'The purchase did not go through. The price was returned to your balance.' THEN 'not_issued'
  WHEN 'Refunded by support. The price was returned to your balance.' THEN 'refunded_by_support'
  WHEN 'The number matched a prefix you excluded and was given back. The price was returned to your balance.' THEN 'phone_exception'
  ELSE "status_reason"
END
WHERE "status_reason" IN ('Canceled by you. The price was returned to your balance.', 'No SMS arrived within 20 minutes. The price was returned to your balance.', 'The provider withdrew this number before any SMS arrived. The price was returned to your balance.', 'The purchase did not go through. The price was returned to your balance.', 'Refunded by support. The price was returned to your balance.', 'The number matched a prefix you excluded and was given back. The price was returned to your balance.');--> statement-breakpoint
UPDATE "rents" SET "status_reason" = CASE "status_reason"
  WHEN 'Canceled by you. The price was returned to your balance.' THEN 'canceled_by_user'
  WHEN 'The provider ended this rental early. The price was returned to your balance.' THEN 'withdrawn'
  WHEN 'The provider ended this rental before its end date. If you did not expect this, contact support within 48 hours.' THEN 'ended_early'
  WHEN 'The rental did not go through. The price was returned to your balance.' THEN 'not_issued'
  WHEN 'Refunded by support. The price was returned to your balance.' THEN 'refunded_by_support'
  WHEN 'Finished through the API before its end date.' THEN 'finished_by_buyer'
  ELSE "status_reason"
END
WHERE "status_reason" IN ('Canceled by you. The price was returned to your balance.', 'The provider ended this rental early. The price was returned to your balance.', 'The provider ended this rental before its end date. If you did not expect this, contact support within 48 hours.', 'The rental did not go through. The price was returned to your balance.', 'Refunded by support. The price was returned to your balance.', 'Finished through the API before its end date.');

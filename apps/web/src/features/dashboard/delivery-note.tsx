import type { DeliveryFigures } from '@simcode/contract';
import { cn } from '@/lib/utils';
import { deliveryDescription, deliveryText, isNewOffer } from './delivery';

/** '94% · ~40 s' (or 'new') under a price; a screen reader hears what the figures mean. */
export function DeliveryNote({
  delivery,
  className,
}: {
  delivery: DeliveryFigures | undefined;
  className?: string;
}) {
  const description = deliveryDescription(delivery);
  return (
    <span
      className={cn(
        'text-xs whitespace-nowrap tabular-nums',
        isNewOffer(delivery) ? 'text-muted-foreground italic' : 'text-green-700',
        className,
      )}
      title={description}
      data-testid="delivery"
    >
      <span aria-hidden="true">{deliveryText(delivery)}</span>
      <span className="sr-only">{description}</span>
    </span>
  );
}

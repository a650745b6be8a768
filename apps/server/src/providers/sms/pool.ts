import type { ProviderKind } from '../../config';
import type { ProviderHealth } from './health';
import type { RoutingContext, RoutingPins } from './routing';
import type { ActivationProvider, RentProvider } from './types';

export interface PoolMember {
  readonly name: string;
  readonly kind: ProviderKind;
  readonly provider: ActivationProvider;
  /** Its rent API, when its kind rents numbers for hours or days (the SMS-Activate family does). */
  readonly rents?: RentProvider;
  /** US dollars per unit of the provider's currency: its prices become our cents with it. */
  readonly usdRate: number;
}

/**
 * The configured suppliers, by name in priority order, with their shared health record. Orders name their
 * provider: whatever happens to an order later (cancel, sync, webhook, renewal) goes to that provider.
 */
export class ProviderPool {
  readonly #byName: ReadonlyMap<string, PoolMember>;

  constructor(
    readonly members: readonly PoolMember[],
    readonly health: ProviderHealth,
    readonly pins: RoutingPins,
  ) {
    if (members.length === 0) throw new Error('the SMS provider pool is empty');
    this.#byName = new Map(members.map((member) => [member.name, member]));
  }

  get names(): string[] {
    return this.members.map((member) => member.name);
  }

  /** The member an order was placed with; throws for a name no longer configured (a setup mistake). */
  member(name: string): PoolMember {
    const member = this.#byName.get(name);
    if (!member) throw new Error(`SMS provider "${name}" is not in SMS_PROVIDERS`);
    return member;
  }

  has(name: string): boolean {
    return this.#byName.has(name);
  }

  /** The provider an order was placed with. */
  get(name: string): ActivationProvider {
    return this.member(name).provider;
  }

  /** Where new rents go: the first provider in priority order whose kind rents numbers. */
  rentMember(): (PoolMember & { rents: RentProvider }) | undefined {
    return this.members.find((member): member is PoolMember & { rents: RentProvider } => !!member.rents);
  }

  routing(): RoutingContext {
    return { health: this.health, priority: this.names, pins: this.pins };
  }
}

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

export type RentMember = PoolMember & { readonly rents: RentProvider };

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

  /** The providers whose kind rents numbers, in priority order: where new rents may go. */
  rentMembers(): RentMember[] {
    return this.members.filter((member): member is RentMember => !!member.rents);
  }

  /** The rent API of the provider a rent was placed with. */
  rentsOf(name: string): RentProvider {
    const { rents } = this.member(name);
    if (!rents) throw new Error(`SMS provider "${name}" does not rent numbers`);
    return rents;
  }

  routing(): RoutingContext {
    return { health: this.health, priority: this.names, pins: this.pins };
  }
}

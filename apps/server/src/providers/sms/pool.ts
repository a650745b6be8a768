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
  /**
   * How long after a purchase the provider refuses a cancel (its documented no-cancel window); 0 where it
   * allows one at once or does not say. The upstream stays the authority: this only tells the buyer when.
   */
  earlyCancelMs(): number;
}

export type RentMember = PoolMember & { readonly rents: RentProvider };

/**
 * The configured suppliers, by name in priority order, with their shared health record. Orders name their
 * provider: whatever happens to an order later (cancel, sync, webhook, renewal) goes to that provider.
 */
export class ProviderPool {
  readonly #byName: ReadonlyMap<string, PoolMember>;
  /** Providers an administrator took out of routing: no new purchase or rent goes to them. */
  #outOfRouting: ReadonlySet<string> = new Set();
  /**
   * Providers whose balance is spent, with since when: a reading at zero keeps one out of routing until a
   * reading shows the account topped up; a NO_BALANCE answer alone keeps it out until `probeAtMs`, when
   * the next purchase routed to it is a probe (a reading may come first).
   */
  readonly #outOfBalance = new Map<string, { since: Date; probeAtMs: number | null }>();

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

  /** The provider's no-cancel window after a purchase; 0 for a name no longer configured. */
  earlyCancelMs(name: string): number {
    return this.#byName.get(name)?.earlyCancelMs() ?? 0;
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

  /** Takes the named providers out of routing and puts every other one back (the console's switches). */
  setOutOfRouting(names: Iterable<string>): void {
    this.#outOfRouting = new Set(names);
  }

  inRouting(name: string): boolean {
    return !this.#outOfRouting.has(name);
  }

  /**
   * The provider's balance is spent: out of routing from `since`. With `probeAfterMs` (a NO_BALANCE
   * answer) only until then, unless a reading at zero said so too; without it (a reading) until
   * `markFunded`.
   */
  markOutOfBalance(name: string, since: Date, probeAfterMs?: number): void {
    const known = this.#outOfBalance.get(name);
    const probeAtMs =
      probeAfterMs === undefined || (known && known.probeAtMs === null)
        ? null
        : this.health.now().getTime() + probeAfterMs;
    this.#outOfBalance.set(name, { since: known?.since ?? since, probeAtMs });
  }

  /** A reading showed money on the provider's account, or it sold a number: it routes again. */
  markFunded(name: string): void {
    this.#outOfBalance.delete(name);
  }

  /** Since when the provider's balance is spent; null while it has money as far as we know. */
  outOfBalanceSince(name: string): Date | null {
    return this.#outOfBalance.get(name)?.since ?? null;
  }

  /** Whether new purchases may go to the provider: in routing and with money on its account. */
  routable(name: string): boolean {
    const empty = this.#outOfBalance.get(name);
    const probing = empty?.probeAtMs != null && this.health.now().getTime() >= empty.probeAtMs;
    return this.inRouting(name) && (!empty || probing);
  }

  routing(): RoutingContext {
    return {
      health: this.health,
      priority: this.names,
      pins: this.pins,
      inRouting: (name) => this.routable(name),
    };
  }
}

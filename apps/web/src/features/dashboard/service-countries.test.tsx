import type { ServiceCountryOffer } from '@simcode/contract';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setDeliveryFloor } from './delivery-floor';
import { ServiceCountries } from './service-countries';

// The stars read the account's favourites; this test is about the offers.
vi.mock('./favourites', () => ({ FavouriteStar: () => null }));

function offer(countryID: string, name: string, orders: number, delivered: number): ServiceCountryOffer {
  return {
    countryID,
    name,
    code: countryID.toLowerCase(),
    price: 0.5,
    stock: 100,
    delivery: { orders, delivered, median_seconds: 40 },
  };
}

const OFFERS = [
  offer('US', 'United States', 20, 19), // 95%
  offer('GB', 'United Kingdom', 20, 14), // 70%
  offer('DE', 'Germany', 20, 10), // 50%
  offer('FR', 'France', 3, 0), // new
];

function renderOffers() {
  return render(
    <ServiceCountries
      service={{ id: 'tg', name: 'Telegram' }}
      countries={OFFERS}
      loading={false}
      buyingCountry={null}
      onBuy={() => {}}
    />,
  );
}

function shownCountries(): string[] {
  return screen
    .getAllByTestId('service-country')
    .map((row) => within(row).getByRole('rowheader').textContent ?? '');
}

afterEach(() => setDeliveryFloor(null));

describe('"By service" countries by delivery rate', () => {
  it('sorts by delivery rate, best first, with new offers last', async () => {
    const user = userEvent.setup();
    renderOffers();
    await user.click(screen.getByRole('button', { name: /^Delivery/ }));
    expect(shownCountries()).toEqual(['United States', 'United Kingdom', 'Germany', 'France']);
  });

  it('hides offers below the minimum, says how many, and remembers the choice', async () => {
    const user = userEvent.setup();
    const first = renderOffers();
    expect(screen.queryByTestId('hidden-offers')).not.toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Minimum delivery rate'), '70% or more');
    // 70% shows as "70%" and is not below "70% or more"; a new offer's rate is not known to be below it.
    expect(shownCountries()).toEqual(['France', 'United Kingdom', 'United States']);
    expect(screen.getByTestId('hidden-offers')).toHaveTextContent('1 offer below 70% is hidden.');

    await user.selectOptions(screen.getByLabelText('Minimum delivery rate'), '90% or more');
    expect(screen.getByTestId('hidden-offers')).toHaveTextContent('2 offers below 90% are hidden.');
    expect(localStorage.getItem('simcode_min_delivery_rate')).toBe('90');

    // Another visit of the page starts with the remembered minimum.
    first.unmount();
    renderOffers();
    expect(screen.getByLabelText('Minimum delivery rate')).toHaveValue('90');
    expect(shownCountries()).toEqual(['France', 'United States']);

    await user.selectOptions(screen.getByLabelText('Minimum delivery rate'), 'Any');
    expect(shownCountries()).toHaveLength(4);
    expect(localStorage.getItem('simcode_min_delivery_rate')).toBeNull();
  });
});

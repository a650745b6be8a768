import { type DepositAddress, type DepositAddressesResponse, topupMessages } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { Copy, ExternalLink, TriangleAlert } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-client';
import { copyToClipboard } from '@/lib/copy';
import { depositAddressesQuery, useDepositAddress } from './api';
import { providerName } from './payment-methods';

type DepositOption = DepositAddressesResponse['options'][number];
const optionKey = (option: Pick<DepositOption, 'provider' | 'currency' | 'network'>) =>
  `${option.provider}:${option.currency}:${option.network}`;

/**
 * The address as a QR code, drawn here from the address itself: no image is fetched from anywhere. The
 * encoder is loaded with the first address shown, so the Top Up page itself stays small.
 */
function AddressQr({ address, label }: { address: string; label: string }) {
  const [svg, setSvg] = useState<string>();
  useEffect(() => {
    let current = true;
    void import('qrcode')
      .then(({ default: QRCode }) =>
        QRCode.toString(address, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }),
      )
      .then((text) => {
        if (current) setSvg(text);
      });
    return () => {
      current = false;
    };
  }, [address]);
  return (
    <div className="flex size-44 shrink-0 items-center justify-center rounded-lg border bg-white p-2">
      {svg && (
        <img
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
          alt={label}
          width={160}
          height={160}
          className="size-40"
        />
      )}
    </div>
  );
}

function AddressDetails({ entry, option }: { entry: DepositAddress; option: DepositOption }) {
  const { t } = useTranslation('topup');
  const coin = { currency: entry.currency, network: entry.network };
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <AddressQr address={entry.address} label={t('deposit.qr', coin)} />
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <p className="text-sm font-medium">{t('deposit.address', coin)}</p>
          <p
            className="rounded-md bg-secondary px-3 py-2 font-mono text-sm break-all"
            data-testid="deposit-address"
          >
            {entry.address}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => void copyToClipboard(entry.address, t('deposit.addressNoun'))}
            >
              <Copy aria-hidden="true" />
              {t('deposit.copy')}
            </Button>
            {entry.url && (
              <Button asChild variant="outline" size="sm">
                <a href={entry.url} target="_blank" rel="noopener noreferrer">
                  <ExternalLink aria-hidden="true" />
                  {t('deposit.openPage')}
                </a>
              </Button>
            )}
          </div>
        </div>
      </div>
      <Alert variant="warning" role="note">
        <TriangleAlert aria-hidden="true" />
        <AlertTitle>{t('deposit.warningTitle', coin)}</AlertTitle>
        <AlertDescription>
          <p>{t('deposit.warning', coin)}</p>
          <p>{t('deposit.minimum', { min: option.min_amount, currency: entry.currency })}</p>
        </AlertDescription>
      </Alert>
    </div>
  );
}

/**
 * A permanent deposit address per coin and network, at the providers that have them (Cryptomus kind):
 * shown with a QR code, a copy button and the network warning. The section is not shown while no such
 * provider answers.
 */
export function DepositAddresses() {
  const { t } = useTranslation('topup');
  const selectId = useId();
  const query = useQuery(depositAddressesQuery);
  const create = useDepositAddress();
  const options = query.data?.options ?? [];
  const [chosen, setChosen] = useState<string>();
  if (options.length === 0) return null;
  const option = options.find((candidate) => optionKey(candidate) === chosen) ?? options[0]!;
  const entry = query.data?.addresses.find((address) => optionKey(address) === optionKey(option));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('deposit.title')}</CardTitle>
        <CardDescription>{t('deposit.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-col gap-2">
          <label htmlFor={selectId} className="text-sm font-medium">
            {t('deposit.coin')}
          </label>
          <select
            id={selectId}
            value={optionKey(option)}
            onChange={(event) => {
              setChosen(event.target.value);
              create.reset();
            }}
            className="h-10 w-full rounded-md border border-input bg-background px-3 text-sm"
          >
            {options.map((candidate) => (
              <option key={optionKey(candidate)} value={optionKey(candidate)}>
                {t('deposit.option', {
                  currency: candidate.currency,
                  network: candidate.network,
                  provider: providerName(candidate.provider),
                })}
              </option>
            ))}
          </select>
        </div>
        {entry ? (
          <AddressDetails entry={entry} option={option} />
        ) : (
          <div className="flex flex-col gap-2">
            <Button
              type="button"
              className="self-start"
              disabled={create.isPending}
              onClick={() =>
                create.mutate({
                  provider: option.provider,
                  currency: option.currency,
                  network: option.network,
                })
              }
            >
              {create.isPending ? t('deposit.creating') : t('deposit.get')}
            </Button>
            {create.error && (
              <p role="alert" className="text-sm text-destructive">
                {errorMessage(create.error, topupMessages.depositAddressFailed)}
              </p>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

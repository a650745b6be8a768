import { expect, type Page } from '@playwright/test';
import { newCredentials, solveCaptcha } from '../support/auth';
import { ANY, catalogue, expectNoEnglish, namePattern, serviceNames } from '../support/languages';
import { expectNoHorizontalOverflow } from '../support/layout';
import { simulatorSettings } from '../support/simulator';
import { test } from '../support/test';

// Issue 18: a visitor whose browser speaks Russian or Chinese goes through sign-up, a top-up, a purchase
// and a support ticket without meeting a word of English (brands and service names aside). The English
// run of the same paths is the rest of the suite, which checks the spec's texts word for word.

const SERVICES = serviceNames();

for (const { language, locale, ticket } of [
  {
    language: 'ru' as const,
    locale: 'ru-RU',
    ticket: { title: 'Не пришёл код', description: 'Номер куплен, но код так и не пришёл.' },
  },
  {
    language: 'zh' as const,
    locale: 'zh-CN',
    ticket: { title: '没有收到验证码', description: '号码已购买，但一直没有收到验证码。' },
  },
]) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });
    const t = catalogue(language);

    test('sign-up, a top-up, a purchase and a ticket, with no English on screen', async ({ page }) => {
      const credentials = newCredentials(language);
      const typed = [credentials.username, credentials.email, ...SERVICES];

      // The English address sends the browser's language to its own.
      await page.goto('/register');
      await expect(page).toHaveURL(new RegExp(`/${language}/register$`));
      await expect(page.locator('html')).toHaveAttribute('lang', language === 'zh' ? 'zh-CN' : 'ru');
      await expectNoEnglish(page);
      await page.getByLabel(t('auth:fields.email')).fill(credentials.email);
      await page.getByLabel(t('auth:fields.username')).fill(credentials.username);
      await page.getByLabel(t('auth:fields.password'), { exact: true }).fill(credentials.password);
      await page.getByLabel(t('auth:register.repeatPassword')).fill(credentials.password);
      await solveCaptcha(page);
      await page.getByRole('button', { name: t('auth:register.submit') }).click();
      await page.waitForURL('**/dashboard');
      await expect(page.getByRole('region', { name: t('dashboard:stats.summary') })).toBeVisible();
      await expectNoEnglish(page, typed);
      await expectNoHorizontalOverflow(page);

      // A top-up in the sandbox checkout (the payment provider's own page is in English, as Cryptomus's is).
      await page.goto('/dashboard/topup');
      await expectNoEnglish(page, typed);
      await page.getByLabel(t('topup:form.amount')).fill('6');
      const popupOpened = page.context().waitForEvent('page');
      await page
        .getByRole('button', { name: namePattern(t('topup:form.depositAmount', { amount: ANY })) })
        .click();
      const popup = await popupOpened;
      await popup.getByRole('button', { name: /^Pay \$6\.00$/ }).click();
      await expect(page.getByText(t('messages:topup.completed'))).toBeVisible();
      await page.waitForURL('**/dashboard');

      // A purchase: the price asked for before charging, the code shown when it arrives.
      await simulatorSettings(page.request, { smsDelayMinMs: 500, smsDelayMaxMs: 1500, noSmsRate: 0 });
      await page.getByRole('searchbox', { name: t('dashboard:countries.search') }).fill('United Kingdom');
      // The one row left is the radio's label; the radio itself is visually hidden.
      await page
        .getByRole('group', { name: t('dashboard:countries.legend'), exact: true })
        .locator('label')
        .first()
        .click();
      await page.getByRole('searchbox', { name: t('dashboard:services.search') }).fill('Telegram');
      await page
        .getByRole('button', {
          name: namePattern(t('dashboard:services.buyLabel', { service: 'Telegram', price: ANY })),
        })
        .click();
      const confirm = page.getByRole('alertdialog');
      await confirm
        .getByRole('button', {
          name: namePattern(t('common:charge.confirm', { action: t('dashboard:buy.action'), price: ANY })),
        })
        .click();
      await expect(page.getByText(t('messages:numbers.purchased', { service: 'Telegram' }))).toBeVisible();
      // The code arrives and shows, with the new number in front of the buyer, as the button that copies it.
      await expect(
        page.getByRole('button', { name: namePattern(t('common:copy.code', { value: ANY })) }).first(),
      ).toBeVisible();
      await expectNoEnglish(page, typed);

      // A support ticket.
      await page.goto('/dashboard/tickets');
      await page.getByRole('button', { name: t('tickets:list.newTicket'), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: t('tickets:new.title') });
      await dialog.getByLabel(t('tickets:new.titleLabel')).fill(ticket.title);
      await dialog.getByLabel(t('tickets:new.descriptionLabel')).fill(ticket.description);
      await dialog.getByRole('button', { name: t('tickets:new.submit') }).click();
      await expect(dialog).toBeHidden();
      await expect(
        page
          .getByRole('region', { name: t('tickets:page.conversation') })
          .getByRole('heading', { name: ticket.title }),
      ).toBeVisible();
      await expectNoEnglish(page, typed);
      await expectNoHorizontalOverflow(page);
    });

    test('the language switch moves a public page to its address in another language and remembers it', async ({
      page,
    }) => {
      await page.goto('/faq');
      await expect(page).toHaveURL(new RegExp(`/${language}/faq$`));
      await expectNoEnglish(page);
      const switchTo = async (target: Page) => {
        await target.getByRole('contentinfo').getByRole('link', { name: 'English' }).click();
        await expect(target).toHaveURL(/\/faq$/);
      };
      await switchTo(page);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently Asked Questions');
      // The choice outlives the browser's language: the English address stays English.
      await page.goto('/');
      await expect(page).toHaveURL(/\/$/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    });
  });
}

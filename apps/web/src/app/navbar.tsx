import { NAVBAR_COMPACT_SCROLL_PX } from '@simcode/contract';
import { ChevronDown, LogOut, Menu, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { AnchorLink } from '@/components/anchor-link';
import { NavbarLanguageSwitch } from '@/components/language-switch';
import { Logo } from '@/components/logo';
import { NavbarThemeSwitch } from '@/components/theme-switch';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n/index';
import { logout, useSession } from '@/lib/session';
import { useScrolledPast } from '@/lib/use-scrolled-past';
import { cn } from '@/lib/utils';

// Signed-in users only: the public pages' first load does not carry it.
const AlertsMenu = lazy(() => import('@/features/alerts/alerts-menu'));
const NavbarBalance = lazy(() =>
  import('./navbar-live').then((module) => ({ default: module.NavbarBalance })),
);
const UnreadTicketsMarker = lazy(() =>
  import('./navbar-live').then((module) => ({ default: module.UnreadTicketsMarker })),
);

/** The labels are keys of the `common` catalogue, translated when rendered. */
const signedInLinks = [
  { to: '/dashboard', labelKey: 'nav.dashboard' },
  { to: '/dashboard/numbers', labelKey: 'nav.myNumbers' },
  { to: '/dashboard/topup', labelKey: 'nav.topUp' },
  { to: '/dashboard/balance', labelKey: 'nav.balance' },
  { to: '/dashboard/api', labelKey: 'nav.api' },
  { to: '/dashboard/account', labelKey: 'nav.account' },
] as const;

const longTermLinks = [
  { to: '/dashboard/longterm', labelKey: 'nav.rentLongTerm' },
  { to: '/dashboard/renewable', labelKey: 'nav.buyRenewable' },
  { to: '/dashboard/longterm/numbers', labelKey: 'nav.myLongTerm' },
] as const;

const visitorAnchors = [
  { id: 'features', labelKey: 'nav.features' },
  { id: 'how-it-works', labelKey: 'nav.howItWorks' },
  { id: 'faq', labelKey: 'nav.faq' },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    // Tighter between lg and xl, so the signed-in links stay on one line down to 1024 px.
    'whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-accent hover:text-foreground lg:px-2 xl:px-3',
    isActive ? 'text-primary' : 'text-slate-600',
  );

function LongTermMenu() {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  const isActive = longTermLinks.some((link) => pathname === link.to);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    const onPointer = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return (
    // A click opens and closes it, as for keyboard and touch: opening on hover made the natural click
    // that follows close it again.
    // biome-ignore lint/a11y/noStaticElementInteractions: focus leaving the menu closes it; the button carries the semantics.
    <div
      ref={containerRef}
      className="relative"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button
        type="button"
        className={cn(linkClass({ isActive }), 'inline-flex items-center gap-1')}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        {t('nav.longTerm')}
        <ChevronDown className={cn('size-4 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </button>
      <div id={menuId} hidden={!open} className="absolute top-full left-0 z-50 min-w-60 pt-1">
        <ul className="rounded-lg border bg-popover p-1 shadow-lg">
          {longTermLinks.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                end
                onClick={() => setOpen(false)}
                className={({ isActive: active }) =>
                  cn(
                    'block rounded-md px-3 py-2 text-sm hover:bg-accent',
                    active ? 'text-primary font-medium' : 'text-slate-700',
                  )
                }
              >
                {t(link.labelKey)}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

export function Navbar() {
  const { t } = useTranslation('common');
  // The role claim only chooses whether to show the link; the console asks the server itself.
  const { isSignedIn, isAdmin } = useSession();
  // A signed-in bar (its links, the alerts, theme and language menus) fits on one line from xl, not from lg.
  const wide = isSignedIn;
  const compact = useScrolledPast(NAVBAR_COMPACT_SCROLL_PX);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [mobileLongTermOpen, setMobileLongTermOpen] = useState(false);
  const { pathname } = useLocation();

  // A new page closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only.
  useEffect(() => setMobileOpen(false), [pathname]);

  return (
    <header
      data-compact={compact || undefined}
      className={cn(
        'fixed inset-x-0 top-0 z-40 border-b bg-white/90 backdrop-blur transition-all duration-200 supports-[backdrop-filter]:bg-white/75',
        compact ? 'shadow-sm' : 'border-transparent',
      )}
    >
      <nav
        aria-label={t('nav.main')}
        className={cn(
          'mx-auto flex max-w-7xl items-center gap-4 px-4 transition-all duration-200 sm:px-6',
          compact ? 'h-14' : 'h-16 lg:h-20',
        )}
      >
        <Logo markOnlyOnPhones={isSignedIn} />
        <div className={cn('ml-auto hidden items-center gap-1', wide ? 'xl:flex' : 'lg:flex')}>
          {isSignedIn ? (
            <>
              {signedInLinks.map((link) => (
                <NavLink key={link.to} to={link.to} end className={linkClass}>
                  {t(link.labelKey)}
                </NavLink>
              ))}
              <LongTermMenu />
              <NavLink to="/dashboard/tickets" className={linkClass}>
                {t('nav.support')}
                <Suspense fallback={null}>
                  <UnreadTicketsMarker />
                </Suspense>
              </NavLink>
              {isAdmin && (
                <NavLink to="/admin" className={linkClass}>
                  {t('nav.console')}
                </NavLink>
              )}
              <Button variant="outline" size="sm" className="ml-2" onClick={() => void logout()}>
                <LogOut aria-hidden="true" />
                {t('nav.logout')}
              </Button>
            </>
          ) : (
            <>
              {visitorAnchors.map((anchor) => (
                <AnchorLink key={anchor.id} sectionId={anchor.id} className={linkClass({ isActive: false })}>
                  {t(anchor.labelKey)}
                </AnchorLink>
              ))}
              <NavLink to="/dashboard/tickets" className={linkClass}>
                {t('nav.support')}
              </NavLink>
              <Button asChild size="sm" className="ml-2">
                <Link to={publicPath('/login')}>{t('nav.getStarted')}</Link>
              </Button>
            </>
          )}
        </div>
        <div className={cn('ml-auto flex items-center', wide ? 'xl:ml-0' : 'lg:ml-0')}>
          {isSignedIn && (
            <Suspense fallback={null}>
              <NavbarBalance />
              <AlertsMenu />
            </Suspense>
          )}
          <NavbarThemeSwitch />
          <NavbarLanguageSwitch />
        </div>
        <Button
          variant="ghost"
          size="icon"
          className={wide ? 'xl:hidden' : 'lg:hidden'}
          aria-expanded={mobileOpen}
          aria-controls="mobile-menu"
          aria-label={mobileOpen ? t('nav.closeMenu') : t('nav.openMenu')}
          onClick={() => setMobileOpen((value) => !value)}
        >
          {mobileOpen ? <X className="size-5" /> : <Menu className="size-5" />}
        </Button>
      </nav>
      <div
        id="mobile-menu"
        hidden={!mobileOpen}
        className={cn(
          'max-h-[calc(100dvh-4rem)] overflow-y-auto border-t bg-white px-4 pb-4',
          wide ? 'xl:hidden' : 'lg:hidden',
        )}
      >
        <ul className="flex flex-col gap-1 pt-2">
          {isSignedIn ? (
            <>
              {signedInLinks.map((link) => (
                <li key={link.to}>
                  <NavLink
                    to={link.to}
                    end
                    className={({ isActive }) => cn(linkClass({ isActive }), 'block')}
                  >
                    {t(link.labelKey)}
                  </NavLink>
                </li>
              ))}
              <li>
                <button
                  type="button"
                  className={cn(linkClass({ isActive: false }), 'flex w-full items-center justify-between')}
                  aria-expanded={mobileLongTermOpen}
                  aria-controls="mobile-longterm-menu"
                  onClick={() => setMobileLongTermOpen((value) => !value)}
                >
                  {t('nav.longTerm')}
                  <ChevronDown
                    className={cn('size-4 transition-transform', mobileLongTermOpen && 'rotate-180')}
                    aria-hidden="true"
                  />
                </button>
                <ul id="mobile-longterm-menu" hidden={!mobileLongTermOpen} className="ml-4 border-l pl-2">
                  {longTermLinks.map((link) => (
                    <li key={link.to}>
                      <NavLink
                        to={link.to}
                        end
                        className={({ isActive }) => cn(linkClass({ isActive }), 'block')}
                      >
                        {t(link.labelKey)}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </li>
              <li>
                <NavLink
                  to="/dashboard/tickets"
                  className={({ isActive }) => cn(linkClass({ isActive }), 'block')}
                >
                  {t('nav.support')}
                  <Suspense fallback={null}>
                    <UnreadTicketsMarker />
                  </Suspense>
                </NavLink>
              </li>
              {isAdmin && (
                <li>
                  <NavLink to="/admin" className={({ isActive }) => cn(linkClass({ isActive }), 'block')}>
                    {t('nav.console')}
                  </NavLink>
                </li>
              )}
              <li className="pt-2">
                <Button variant="outline" className="w-full" onClick={() => void logout()}>
                  <LogOut aria-hidden="true" />
                  {t('nav.logout')}
                </Button>
              </li>
            </>
          ) : (
            <>
              {visitorAnchors.map((anchor) => (
                <li key={anchor.id}>
                  <AnchorLink
                    sectionId={anchor.id}
                    onClick={() => setMobileOpen(false)}
                    className={cn(linkClass({ isActive: false }), 'block')}
                  >
                    {t(anchor.labelKey)}
                  </AnchorLink>
                </li>
              ))}
              <li>
                <NavLink
                  to="/dashboard/tickets"
                  className={({ isActive }) => cn(linkClass({ isActive }), 'block')}
                >
                  {t('nav.support')}
                </NavLink>
              </li>
              <li className="pt-2">
                <Button asChild className="w-full">
                  <Link to={publicPath('/login')}>{t('nav.getStarted')}</Link>
                </Button>
              </li>
            </>
          )}
        </ul>
      </div>
    </header>
  );
}

import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { call, listMerchants, type ConsoleSession } from './api';
import { useLoad } from './use-load';

const SECTIONS = [
  ['home', 'Home'],
  ['orders', 'Orders'],
  ['webhooks', 'Webhooks'],
  ['catalog', 'Catalog'],
  ['keys', 'API keys'],
  ['discounts', 'Discounts'],
  ['shipping', 'Shipping'],
  ['customers', 'Customers'],
  ['merchant', 'Merchant'],
] as const;

export function Layout({ session, merchantId, section, onSignOut, children }: { session: ConsoleSession; merchantId: string; section: string; onSignOut: () => void; children: ReactNode }) {
  const [, navigate] = useLocation();
  const tabs = useRef<HTMLElement>(null);
  // On a phone the tab bar scrolls: keep the current section in view.
  useEffect(() => {
    const show = () => {
      const nav = tabs.current;
      const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
      // Scroll the bar only (scrollIntoView would scroll the page too).
      if (nav && current && (current.offsetLeft < nav.scrollLeft || current.offsetLeft + current.offsetWidth > nav.scrollLeft + nav.clientWidth)) nav.scrollLeft = current.offsetLeft - 16;
    };
    show();
    window.addEventListener('resize', show);
    return () => window.removeEventListener('resize', show);
  }, [section]);
  const merchants = useLoad(() => call(listMerchants({ query: { limit: 100 } })), 'merchants');
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header>
        <strong className="brand">Commerce Gateway</strong>
        <label className="merchant">
          <span className="visually-hidden">Merchant</span>
          <select value={merchantId} onChange={(e) => navigate(`/m/${encodeURIComponent(e.target.value)}/${section}`)} aria-label="Merchant">
            {(merchants.data?.items ?? [{ id: merchantId, name: merchantId }]).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name === m.id ? m.id : `${m.name} (${m.id})`}
              </option>
            ))}
          </select>
        </label>
        <span className="who" title={session.operator.id}>
          {session.operator.name} · {session.operator.access}
        </span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <nav className="sections" aria-label="Sections" ref={tabs}>
        {SECTIONS.map(([path, label]) => (
          <Link key={path} href={`/m/${encodeURIComponent(merchantId)}/${path}`} aria-current={section === path ? 'page' : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

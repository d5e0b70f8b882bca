/**
 * The operators' console at /console: a single page over the admin API (api.ts), routed under
 * /console by wouter, signed in with an operator credential exchanged for a session cookie.
 */
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Redirect, Route, Router, Switch } from 'wouter';
import { AdminApiError, call, deleteConsoleSession, getConsoleSession, listMerchants, type ConsoleSession } from './api';
import { Layout } from './layout';
import { Catalog } from './pages/catalog';
import { ProductPage } from './pages/product';
import { Customers, Discounts, Shipping } from './pages/commerce';
import { Home } from './pages/home';
import { Keys } from './pages/keys';
import { MerchantSettings } from './pages/merchant';
import { OrderDetail } from './pages/order-detail';
import { Orders } from './pages/orders';
import { EndpointDeliveries, Webhooks } from './pages/webhooks';
import { SignIn } from './sign-in';
import { ErrorNote } from './ui';
import { useLoad } from './use-load';
import './styles.css';

function FirstMerchant() {
  const merchants = useLoad(() => call(listMerchants({ query: { limit: 1 } })), 'first');
  if (merchants.error) return <ErrorNote error={merchants.error} />;
  if (!merchants.data) return <p aria-busy="true">Loading…</p>;
  const first = merchants.data.items[0];
  if (!first) return <p className="empty">No merchant yet: create one with `npm run gateway -- merchants create`.</p>;
  return <Redirect to={`/m/${encodeURIComponent(first.id)}/home`} replace />;
}

function Section({ session, merchant, section, onSignOut, item }: { session: ConsoleSession; merchant: string; section: string; item?: string; onSignOut: () => void }) {
  const canWrite = session.operator.access === 'full';
  const page = (() => {
    switch (section) {
      case 'home':
        return <Home merchantId={merchant} />;
      case 'orders':
        return item ? <OrderDetail merchantId={merchant} orderId={item} canWrite={canWrite} /> : <Orders merchantId={merchant} />;
      case 'webhooks':
        return item ? <EndpointDeliveries merchantId={merchant} endpointId={item} canWrite={canWrite} /> : <Webhooks merchantId={merchant} canWrite={canWrite} />;
      case 'catalog':
        return item ? <ProductPage merchantId={merchant} productId={item} canWrite={canWrite} /> : <Catalog merchantId={merchant} canWrite={canWrite} />;
      case 'keys':
        return <Keys merchantId={merchant} canWrite={canWrite} />;
      case 'discounts':
        return <Discounts merchantId={merchant} canWrite={canWrite} />;
      case 'shipping':
        return <Shipping merchantId={merchant} canWrite={canWrite} />;
      case 'merchant':
        return <MerchantSettings merchantId={merchant} canWrite={canWrite} />;
      case 'customers':
        return <Customers merchantId={merchant} canWrite={canWrite} />;
      default:
        return <p className="empty">No such page.</p>;
    }
  })();
  return (
    <Layout session={session} merchantId={merchant} section={section} onSignOut={onSignOut}>
      {page}
    </Layout>
  );
}

function App() {
  const [session, setSession] = useState<ConsoleSession | null>();
  useEffect(() => {
    call(getConsoleSession()).then(setSession, (error: unknown) => {
      if (error instanceof AdminApiError && error.status === 401) setSession(null);
      else setSession(null);
    });
  }, []);
  if (session === undefined) return <p aria-busy="true">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={setSession} />;
  const signOut = () => {
    void call(deleteConsoleSession()).finally(() => setSession(null));
  };
  return (
    <Switch>
      <Route path="/m/:merchant/:section/:item">{(p: { merchant: string; section: string; item: string }) => <Section session={session} merchant={p.merchant} section={p.section} item={p.item} onSignOut={signOut} />}</Route>
      <Route path="/m/:merchant/:section">{(p: { merchant: string; section: string }) => <Section session={session} merchant={p.merchant} section={p.section} onSignOut={signOut} />}</Route>
      <Route>
        <FirstMerchant />
      </Route>
    </Switch>
  );
}

createRoot(document.getElementById('console')!).render(
  <StrictMode>
    <Router base="/console">
      <App />
    </Router>
  </StrictMode>,
);

import './zod-config';
import './styles.css';
import { startCountUp } from '@/lib/count-up';
import { getToken } from '@/lib/session';
import { firstInteraction, holdActionsUntil } from './app/deferred-start';
import { interactive } from './app/interactive';

const container = document.getElementById('root')!;
// The app's shell (skeletons painted before the script came, `data-shell`) is replaced, not taken over.
const prerendered = container.firstElementChild !== null && container.dataset.shell === undefined;
// Until the app has taken over a prerendered page, what needs it is held (see deferred-start.ts).
if (prerendered) holdActionsUntil(interactive, container);
// The landing figures count up when they come into view, whether or not the visitor has interacted yet.
const statistics = container.querySelector<HTMLElement>('dl:has([data-stat])');
if (statistics) startCountUp(statistics);
// A prerendered content page or account form is complete without script, so the app (React, the router,
// the page's code, the captcha) loads on the visitor's first interaction rather than competing with the
// first paint. A signed-in visitor gets it at once, to see their own navigation bar, and so does the sign-in
// page sent to when a session ended (`?ended=`): the notice saying why is the app's to render.
const waitForInteraction =
  container.dataset.hydrate === 'on-interaction' &&
  getToken() === null &&
  !new URLSearchParams(window.location.search).has('ended');
void (waitForInteraction ? firstInteraction() : Promise.resolve())
  .then(() => import('./app/start-app'))
  .then(({ startApp }) => startApp(container));

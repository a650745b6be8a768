import { z } from 'zod';
import { reasonField } from './admin/common';
import { API_V1_PREFIX } from './api-v1';
import { defineMessages } from './i18n/define-messages';
import en from './i18n/locales/en.json';
import { plainText } from './wire';

/**
 * The status page (issue 30, ADR 0030): the state of the site and of each supplier (by an anonymous label
 * unless the operator names it), measured by the product's own synthetic checks, with incidents that open
 * and close themselves and ones administrators write, as the `/status` page, JSON, an Atom feed and e-mail.
 */

/** Days of uptime bars the page and the JSON show. */
export const STATUS_DAYS = 90;
/** Closed incidents listed, newest first (within the bars' days). */
export const STATUS_PAST_INCIDENTS = 20;

export const statusPaths = {
  api: `${API_V1_PREFIX}/status`,
  subscription: '/api/status/subscription',
  adminIncidents: '/api/admin/incidents',
  adminIncident: (id: number) => `/api/admin/incidents/${id}`,
} as const;

export const COMPONENT_STATES = ['operational', 'down', 'unknown'] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];
export const INCIDENT_PHASES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentPhase = (typeof INCIDENT_PHASES)[number];

/** An incident phase's name, as the page, the console and the feed show it. */
export const incidentPhaseMessages = defineMessages('incidentPhases', en.incidentPhases);

/** The Atom feed's own words; the incidents' texts are the ones written for each language. */
export const statusFeedMessages = defineMessages('statusFeed', en.statusFeed, (t) => ({
  title: (app: string) => t('title', { app }),
  entryTitle: (title: string, component: string, phase: IncidentPhase) =>
    t('entryTitle', { title, component, phase: incidentPhaseMessages[phase] }),
}));

const share = z.number().min(0).max(1).nullable();

/** A text in each language of the site. */
export const localizedTextSchema = z.object({ en: z.string(), ru: z.string(), zh: z.string() });
export type LocalizedText = z.infer<typeof localizedTextSchema>;

export const statusDaySchema = z.object({
  day: z.string().describe('UTC day, YYYY-MM-DD.'),
  checks: z.number().int().nonnegative().describe('Synthetic checks run that day (one a minute).'),
  uptime: share.describe('Share of the checks that passed; null when none ran.'),
});
export type StatusDay = z.infer<typeof statusDaySchema>;

export const statusComponentSchema = z.object({
  id: z.string().describe('`web`, `api`, `payments`, or `supplier-a`, `supplier-b`...'),
  name: z.string().describe('The public name; suppliers are "Supplier A", "Supplier B"... unless named.'),
  state: z.enum(COMPONENT_STATES).describe('From the last check; unknown when none ran in the last minutes.'),
  uptime: share.describe(`Share of passed checks over the last ${STATUS_DAYS} days.`),
  days: z.array(statusDaySchema).describe(`The last ${STATUS_DAYS} UTC days, oldest first.`),
});
export type StatusComponent = z.infer<typeof statusComponentSchema>;

export const incidentUpdateSchema = z.object({
  at: z.string(),
  phase: z.enum(INCIDENT_PHASES),
  text: localizedTextSchema,
});
export type IncidentUpdate = z.infer<typeof incidentUpdateSchema>;

export const incidentSchema = z.object({
  id: z.number().int(),
  component: z.string(),
  component_name: z.string(),
  origin: z.enum(['automatic', 'manual']).describe('Opened by the checks, or by an administrator.'),
  state: z.enum(['open', 'resolved']),
  title: localizedTextSchema,
  opened_at: z.string(),
  resolved_at: z.string().nullable(),
  updates: z.array(incidentUpdateSchema).describe('Oldest first.'),
});
export type Incident = z.infer<typeof incidentSchema>;

const deliveryFiguresSchema = z.object({
  settled: z.number().int().nonnegative(),
  with_code: z.number().int().nonnegative(),
  delivery_rate: share.describe('with_code / settled; null under the index’s minimum count.'),
});

export const statusSchema = z.object({
  generated_at: z.string(),
  components: z.array(statusComponentSchema),
  open_incidents: z.array(incidentSchema),
  past_incidents: z
    .array(incidentSchema)
    .describe(`Up to ${STATUS_PAST_INCIDENTS} closed incidents, newest first.`),
  delivery: z.object({
    last_hour: deliveryFiguresSchema.describe('Orders bought in the last hour, settled since.'),
    normal: deliveryFiguresSchema.describe('The 7 days before: the normal the last hour is read against.'),
  }),
});
export type StatusAnswer = z.infer<typeof statusSchema>;

export const statusSubscriptionSchema = z.object({ success: z.literal(true), subscribed: z.boolean() });
export const statusSubscriptionRequestSchema = z.object({ subscribed: z.boolean() });

const localizedInput = (maxLength: number) =>
  z.object({
    en: plainText(maxLength).pipe(z.string().trim().min(1)),
    ru: plainText(maxLength).pipe(z.string().trim().min(1)),
    zh: plainText(maxLength).pipe(z.string().trim().min(1)),
  });

export const incidentOpenRequestSchema = z.object({
  component: plainText(40),
  title: localizedInput(200),
  text: localizedInput(2000),
  reason: reasonField,
});
export const incidentUpdateRequestSchema = z.object({
  phase: z.enum(INCIDENT_PHASES).exclude(['resolved']),
  text: localizedInput(2000),
  reason: reasonField,
});
export const incidentResolveRequestSchema = z.object({ text: localizedInput(2000), reason: reasonField });
export const incidentParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

export const adminIncidentsResponseSchema = z.object({
  success: z.literal(true),
  components: z.array(z.object({ id: z.string(), name: z.string() })),
  incidents: z.array(incidentSchema),
});
export type AdminIncidentsResponse = z.infer<typeof adminIncidentsResponseSchema>;

import {
  type Incident,
  LANGUAGE_TAGS,
  type Language,
  localizedPublicPath,
  type StatusAnswer,
  statusFeedMessages,
  statusFeedPath,
} from '@simcode/contract';
import { escapeHtml } from '../../lib/html';

/**
 * The status page as an Atom feed (RFC 4287) in a language: one entry per update of every incident listed,
 * newest first, with the texts written for that language. Each entry's id is stable (the incident and the
 * update's place on the page of that language), so readers show each once. Run in `language`: the feed's
 * own words are the shared catalogue's.
 */
export function statusFeedXml(
  answer: StatusAnswer,
  publicUrl: string,
  appName: string,
  language: Language,
): string {
  const page = `${publicUrl}${localizedPublicPath('/status', language)}`;
  const incidents: Incident[] = [...answer.open_incidents, ...answer.past_incidents];
  const entries = incidents
    .flatMap((incident) =>
      incident.updates.map((update, index) => ({
        id: `${page}#incident-${incident.id}-update-${index + 1}`,
        link: `${page}#incident-${incident.id}`,
        title: statusFeedMessages.entryTitle(incident.title[language], incident.component_name, update.phase),
        at: update.at,
        text: update.text[language],
      })),
    )
    .sort((a, b) => b.at.localeCompare(a.at));
  const updated = entries[0]?.at ?? answer.generated_at;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${LANGUAGE_TAGS[language]}">`,
    `  <id>${escapeHtml(page)}</id>`,
    `  <title>${escapeHtml(statusFeedMessages.title(appName))}</title>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="alternate" type="text/html" href="${escapeHtml(page)}"/>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeHtml(`${publicUrl}${statusFeedPath(language)}`)}"/>`,
    `  <author><name>${escapeHtml(appName)}</name></author>`,
    ...entries.map((entry) =>
      [
        '  <entry>',
        `    <id>${escapeHtml(entry.id)}</id>`,
        `    <title>${escapeHtml(entry.title)}</title>`,
        `    <updated>${entry.at}</updated>`,
        `    <link rel="alternate" type="text/html" href="${escapeHtml(entry.link)}"/>`,
        `    <content type="text">${escapeHtml(entry.text)}</content>`,
        '  </entry>',
      ].join('\n'),
    ),
    '</feed>',
    '',
  ].join('\n');
}

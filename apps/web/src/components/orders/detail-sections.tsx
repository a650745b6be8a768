import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyText } from '@/components/empty-text';
import { SectionCard } from '@/components/section-card';

/** One section of a record's page: a named card, or what it says when it has nothing to list. */
export interface DetailSection {
  id: string;
  icon: LucideIcon;
  title: string;
  description?: string;
  /** Shown instead of the content when set: the section has nothing to list. */
  empty?: string | false;
  content: ReactNode;
}

/** A record's page below its header: its sections, one under the other. */
export function DetailSections({ sections }: { sections: DetailSection[] }) {
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4 lg:gap-6">
      {sections.map(({ id, icon, title, description, empty, content }) => (
        <SectionCard key={id} id={id} icon={icon} title={title} description={description}>
          {empty ? <EmptyText>{empty}</EmptyText> : content}
        </SectionCard>
      ))}
    </div>
  );
}

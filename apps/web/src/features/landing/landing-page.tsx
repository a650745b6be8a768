import { publicPageMeta } from '@/lib/page-meta';
import { useDocumentTitle } from '@/lib/use-document-title';
import { CtaSection } from './cta-section';
import { FaqSection } from './faq-section';
import { FeaturesSection } from './features-section';
import { HeroSection } from './hero-section';
import { HowItWorksSection } from './how-it-works-section';
import { ServicesSection } from './services-section';
import { StatsSection } from './stats-section';

/** The home page: the spec's sections in the spec's order. */
export function LandingPage() {
  useDocumentTitle(publicPageMeta('/').title);
  return (
    <main>
      <HeroSection />
      <StatsSection />
      <FeaturesSection />
      <ServicesSection />
      <HowItWorksSection />
      <FaqSection />
      <CtaSection />
    </main>
  );
}

import { CalendarClock, Headset, type LucideIcon, RadioTower, ShieldCheck, Wallet, Zap } from 'lucide-react';
import { SectionHeading } from './section-heading';

const features: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: RadioTower,
    title: 'Real SIM, not VoIP',
    text: 'Ordinary mobile numbers on physical SIM cards, the kind platforms expect when they refuse virtual numbers.',
  },
  {
    icon: ShieldCheck,
    title: 'Exclusive numbers',
    text: 'A number you buy is yours alone. Numbers are never resold to anyone else.',
  },
  {
    icon: Zap,
    title: 'Instant activation',
    text: 'Your number is ready the moment you buy it, and the code appears in My Numbers when the SMS arrives.',
  },
  {
    icon: Wallet,
    title: 'Pay only for what you use',
    text: 'No subscriptions. If no SMS arrives within 20 minutes, the price goes back to your balance automatically.',
  },
  {
    icon: CalendarClock,
    title: 'Long-term and renewable numbers',
    text: 'Rent a number from 4 hours to 1 month, or a renewable one by the week or month, with unlimited messages. In Beta.',
  },
  {
    icon: Headset,
    title: '24/7 support',
    text: 'Open a support ticket or write to us in the support chat, at any hour of any day.',
  },
];

export function FeaturesSection() {
  return (
    <section
      id="features"
      aria-labelledby="features-title"
      className="scroll-mt-20 px-4 py-20 sm:px-6 sm:py-28"
    >
      <SectionHeading id="features-title" eyebrow="Features" title="Everything you need to get verified">
        Numbers from 180+ countries for 1,000+ services, with availability updated every minute.
      </SectionHeading>
      <ul className="mx-auto mt-12 grid max-w-6xl gap-4 sm:mt-14 sm:grid-cols-2 sm:gap-5 lg:grid-cols-3">
        {features.map(({ icon: Icon, title, text }) => (
          <li
            key={title}
            className="flex gap-4 rounded-2xl border bg-white p-5 shadow-xs transition-shadow hover:shadow-md sm:flex-col sm:gap-5 sm:p-6"
          >
            <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-secondary text-primary">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <div>
              <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-1.5 leading-relaxed text-slate-600 sm:mt-2">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

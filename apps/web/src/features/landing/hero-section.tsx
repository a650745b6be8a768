import { ArrowRight, BadgeCheck, Check } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { HeroPreview } from './hero-preview';

const promises = ['No subscriptions', 'Refund if no SMS in 20 min', '24/7 support'];

export function HeroSection() {
  return (
    <section
      id="hero"
      aria-labelledby="hero-title"
      className="relative isolate scroll-mt-20 overflow-hidden bg-gradient-to-b from-indigo-50 via-white to-white pt-28 pb-14 sm:pt-36 lg:pb-20"
    >
      <div
        aria-hidden="true"
        className="absolute top-0 left-1/2 -z-10 h-[36rem] w-[72rem] -translate-x-1/2 -translate-y-1/3 rounded-full bg-[radial-gradient(closest-side,rgb(165_180_252/0.45),transparent)]"
      />
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-[1.15fr_1fr] lg:gap-16">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border border-indigo-200 bg-white/80 px-3 py-1 text-sm font-medium text-indigo-800 shadow-xs">
            <BadgeCheck className="size-4" aria-hidden="true" />
            Real SIM numbers, not VoIP
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl"
          >
            SMS verification codes on <span className="text-primary">real SIM numbers</span>
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg text-pretty text-slate-600 lg:mx-0">
            Phone numbers from 180+ countries for 1,000+ services. Instant activation, exclusive numbers that
            are never resold, and you pay only for what you use.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row lg:justify-start">
            <Button asChild size="lg" className="h-12 px-7">
              <Link to="/login">
                Get Started
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline" className="h-12 bg-white px-7">
              <Link to="/register">Create Account</Link>
            </Button>
          </div>
          <ul className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-slate-600 lg:justify-start">
            {promises.map((promise) => (
              <li key={promise} className="inline-flex items-center gap-1.5">
                <Check className="size-4 text-success" aria-hidden="true" />
                {promise}
              </li>
            ))}
          </ul>
        </div>
        <HeroPreview />
      </div>
    </section>
  );
}

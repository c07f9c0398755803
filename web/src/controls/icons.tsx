// Inline icons for the transport buttons (decorative: the buttons' text names them).
const common = { width: 16, height: 16, viewBox: '0 0 16 16', 'aria-hidden': true, focusable: false } as const;

export const StepIcon = () => (
  <svg {...common}>
    <path d="M3 3l7 5-7 5z" fill="currentColor" />
    <rect x="11" y="3" width="2" height="10" rx="0.5" fill="currentColor" />
  </svg>
);

export const StepBackIcon = () => (
  <svg {...common}>
    <path d="M13 3L6 8l7 5z" fill="currentColor" />
    <rect x="3" y="3" width="2" height="10" rx="0.5" fill="currentColor" />
  </svg>
);

export const PlayIcon = () => (
  <svg {...common}>
    <path d="M4 2.5l9 5.5-9 5.5z" fill="currentColor" />
  </svg>
);

export const PauseIcon = () => (
  <svg {...common}>
    <rect x="3.5" y="3" width="3" height="10" rx="0.75" fill="currentColor" />
    <rect x="9.5" y="3" width="3" height="10" rx="0.75" fill="currentColor" />
  </svg>
);

export const ResetIcon = () => (
  <svg {...common}>
    <path
      d="M3.5 8a4.5 4.5 0 1 0 1.4-3.26"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
    />
    <path d="M2.5 2.5v3.5H6" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

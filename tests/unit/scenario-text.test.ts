// The scenario heading's description: names the engine writes in backticks
// (for the docs) become code elements, not literal backticks.
import { isValidElement } from 'react';
import { describe, expect, it } from 'vitest';
import { withCode } from '../../web/src/ScenarioText';

describe('withCode', () => {
  it('turns backticked names into code and keeps the text around them', () => {
    const parts = withCode('every interval a userspace agent writes `request` pages to `memory.reclaim`.');
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe('every interval a userspace agent writes ');
    const code = parts[1];
    expect(isValidElement(code) && code.type === 'code' && (code.props as { children: string }).children === 'request').toBe(true);
    expect(parts[2]).toBe(' pages to ');
    expect(isValidElement(parts[3])).toBe(true);
    expect(parts.join('')).not.toContain('`');
  });

  it('leaves text without backticks, or with an unpaired one, as it is', () => {
    expect(withCode('plain')).toEqual(['plain']);
    expect(withCode('a ` b')).toEqual(['a ` b']);
  });
});

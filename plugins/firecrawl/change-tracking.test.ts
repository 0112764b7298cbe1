/** changeTracking's json mode: which fields changed between two reads' extracted data. */
import { describe, expect, it } from 'vitest';
import { changedFields, ROOT_FIELD } from './change-tracking.js';

describe('changedFields', () => {
  it('names only the top-level fields whose values differ, compared deeply', () => {
    const previous = { name: 'granite', hardness: 6, uses: ['steps', 'kerbs'], origin: { country: 'PT' } };
    const current = { name: 'granite', hardness: 7, uses: ['steps', 'kerbs'], origin: { country: 'ES' } };
    expect(changedFields(previous, current)).toEqual({
      hardness: { previous: 6, current: 7 },
      origin: { previous: { country: 'PT' }, current: { country: 'ES' } },
    });
  });

  it('a field that appeared or went is compared with null', () => {
    expect(changedFields({ name: 'granite' }, { colour: 'grey' })).toEqual({
      name: { previous: 'granite', current: null },
      colour: { previous: null, current: 'grey' },
    });
  });

  it('equal data has no changed field, whatever its key order', () => {
    expect(changedFields({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toEqual({});
  });

  it('a root that is not an object is one field', () => {
    expect(changedFields(['a'], ['a', 'b'])).toEqual({ [ROOT_FIELD]: { previous: ['a'], current: ['a', 'b'] } });
    expect(changedFields('same', 'same')).toEqual({});
  });
});

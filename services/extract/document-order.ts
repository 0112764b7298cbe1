/**
 * Elements around an element in document order, outside it: what the content scorer weighs before a block (an
 * intro's lead, the body above a cue) and looks through after one (a body's stray continuation, displaced replies).
 */

/**
 * Elements inside `container` that come before `element` and do not hold it: its and its ancestors' earlier
 * siblings.
 */
export function* precedingWithin(element: Element, container: Element): Generator<Element> {
  for (let node: Element | null = element; node && node !== container; node = node.parentElement)
    for (let previous = node.previousElementSibling; previous; previous = previous.previousElementSibling)
      yield previous;
}

/**
 * Elements that come after `element` and do not hold it, up to `container` (exclusive; the whole document when
 * null): its and its ancestors' later siblings.
 */
export function* followingWithin(element: Element, container: Element | null): Generator<Element> {
  for (let node: Element | null = element; node && node !== container; node = node.parentElement)
    for (let next = node.nextElementSibling; next; next = next.nextElementSibling) yield next;
}

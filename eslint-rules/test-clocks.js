// An ESLint rule for the project's "timing never goes into the tests" (bench/README.md, docs/adr/0028): a test
// that compares an elapsed time with a threshold passes or fails with the machine's load, not with the code.
// `no-elapsed-time-assertions` reports a comparison assertion (expect(…).toBeLessThan and the other ordering
// matchers, or assert/assert.ok of a <, <=, > or >= comparison) whose operands hold a duration measured on a
// clock: arithmetic over Date.now(), performance.now() or process.hrtime() or over a variable read from one
// (followed through the file in source order), a variable or property holding such a result, or a value named as
// an elapsed time (`elapsed…`, `ms`, `perQuery…`). Comparing two instants (a record's time lies between two
// readings taken around the request) is an ordering and stays allowed, as does waiting for a condition with a
// deadline; assert an ordering or an event instead, or move the figure to a benchmark in bench/.

const ORDERING_MATCHERS = new Set([
  'toBeLessThan',
  'toBeLessThanOrEqual',
  'toBeGreaterThan',
  'toBeGreaterThanOrEqual',
]);
const RELATIONAL = new Set(['<', '<=', '>', '>=']);
const ARITHMETIC = new Set(['-', '+', '/', '*']);
const ELAPSED_NAME = /^(elapsed\w*|\w*Elapsed\w*|ms|perQuery\w*|took\w*)$/;

/** Date.now(), performance.now(), process.hrtime() and process.hrtime.bigint(). */
function isClockCall(node) {
  if (node.type !== 'CallExpression') return false;
  const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
  if (callee.type !== 'MemberExpression' || callee.computed) return false;
  const name = callee.property.name;
  const object = callee.object;
  if (object.type === 'Identifier') {
    if (name === 'now' && (object.name === 'Date' || object.name === 'performance')) return true;
    if (name === 'hrtime' && object.name === 'process') return true;
  }
  // process.hrtime.bigint()
  return (
    name === 'bigint' &&
    object.type === 'MemberExpression' &&
    !object.computed &&
    object.property.name === 'hrtime' &&
    object.object.type === 'Identifier' &&
    object.object.name === 'process'
  );
}

/** Every node below `node` (itself included), without the parent links. */
function* nodesOf(node) {
  if (!node || typeof node.type !== 'string') return;
  yield node;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent') continue;
    if (Array.isArray(value)) for (const child of value) yield* nodesOf(child);
    else if (value && typeof value === 'object' && typeof value.type === 'string') yield* nodesOf(value);
  }
}

/** The names a binding pattern declares (`a`, `{ a, b: c }`, `[a, ...b]`). */
function boundNames(pattern) {
  return [...nodesOf(pattern)].filter((n) => n.type === 'Identifier').map((n) => n.name);
}

export const noElapsedTimeAssertions = {
  meta: {
    type: 'problem',
    docs: {
      description: 'A test asserts no elapsed time: timing never goes into the tests (docs/adr/0028).',
    },
    schema: [],
    messages: {
      elapsed:
        'This assertion compares a clock reading with a threshold: it fails with the machine, not the code. Assert an ordering or an event instead (what happened before what), or move the figure to a benchmark in bench/.',
    },
  },
  create(context) {
    /** Variables holding a clock reading (an instant), and variables and properties holding a duration. */
    const instants = new Set();
    const durations = new Set();
    const namesDuration = (name) => durations.has(name) || ELAPSED_NAME.test(name);
    const readsInstant = (node) =>
      [...nodesOf(node)].some(
        (n) => isClockCall(n) || (n.type === 'Identifier' && (instants.has(n.name) || namesDuration(n.name))),
      );
    const readsClock = (node) =>
      [...nodesOf(node)].some(
        (n) =>
          (n.type === 'BinaryExpression' &&
            ARITHMETIC.has(n.operator) &&
            (readsInstant(n.left) || readsInstant(n.right))) ||
          (n.type === 'Identifier' && namesDuration(n.name)) ||
          (n.type === 'MemberExpression' &&
            !n.computed &&
            n.property.type === 'Identifier' &&
            namesDuration(n.property.name)),
      );
    const note = (name, value) => {
      if (readsClock(value)) durations.add(name);
      else if ([...nodesOf(value)].some(isClockCall)) instants.add(name);
    };
    const comparesClock = (node) =>
      [...nodesOf(node)].some(
        (n) => n.type === 'BinaryExpression' && RELATIONAL.has(n.operator) && readsClock(n),
      );
    /** `expect(x)` at the root of `expect(x).not.toBeLessThan(…)`, or undefined. */
    const expectCallOf = (member) => {
      let object = member.object;
      while (object.type === 'MemberExpression') object = object.object;
      if (object.type !== 'CallExpression') return undefined;
      const callee = object.callee;
      const isExpect =
        (callee.type === 'Identifier' && callee.name === 'expect') ||
        (callee.type === 'MemberExpression' &&
          callee.object.type === 'Identifier' &&
          callee.object.name === 'expect');
      return isExpect ? object : undefined;
    };

    return {
      VariableDeclarator(node) {
        if (node.init) for (const name of boundNames(node.id)) note(name, node.init);
      },
      AssignmentExpression(node) {
        if (node.left.type === 'Identifier') note(node.left.name, node.right);
      },
      Property(node) {
        if (!node.computed && node.key.type === 'Identifier' && node.value && readsClock(node.value)) {
          durations.add(node.key.name);
        }
      },
      CallExpression(node) {
        const callee = node.callee;
        if (
          callee.type === 'MemberExpression' &&
          !callee.computed &&
          ORDERING_MATCHERS.has(callee.property.name)
        ) {
          const expectCall = expectCallOf(callee);
          if (expectCall && [...expectCall.arguments, ...node.arguments].some(readsClock)) {
            context.report({ node, messageId: 'elapsed' });
          }
          return;
        }
        const isAssert =
          (callee.type === 'Identifier' && callee.name === 'assert') ||
          (callee.type === 'MemberExpression' &&
            callee.object.type === 'Identifier' &&
            callee.object.name === 'assert' &&
            !callee.computed &&
            callee.property.name === 'ok');
        if (isAssert && node.arguments[0] && comparesClock(node.arguments[0])) {
          context.report({ node, messageId: 'elapsed' });
        }
      },
    };
  },
};

/** The local plugin: `test-clocks/no-elapsed-time-assertions`. */
export default {
  meta: { name: 'funnel-test-clocks' },
  rules: { 'no-elapsed-time-assertions': noElapsedTimeAssertions },
};

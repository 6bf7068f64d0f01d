// Imported first by server/index.ts: React and React Router pick their build from NODE_ENV when
// they are first evaluated, which happens during the imports that follow this one.
process.env.NODE_ENV ??= 'production'

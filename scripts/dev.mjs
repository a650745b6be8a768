// `npm run dev`: the API server with reload on change, and Vite's dev server (with its proxy to the API).
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@simcode/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@simcode/web'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });

import { RUST_CASES } from './foreign/cases.ts';
import { RUST } from './foreign/deployment.ts';
import { sparWith } from './foreign/sparring.ts';

sparWith(RUST, RUST_CASES);

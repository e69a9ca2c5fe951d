import { SQL_CASES } from './foreign/cases.ts';
import { SQL } from './foreign/deployment.ts';
import { sparWith } from './foreign/sparring.ts';

sparWith(SQL, SQL_CASES);

// The example of Flink's "Intro to the DataStream API" (Learn Flink), in Weir: a stream of
// people, filtered to the adults, printed.
//
//   pnpm weir run packages/examples/jobs/intro/flintstones.ts
import { Types, type DataStream, type StreamExecutionEnvironment } from '@weir/api';

/** Flink's example POJO; `toString` as Flink's, so `print()` writes the same lines. */
export class Person {
  constructor(
    readonly name: string,
    readonly age: number,
  ) {}

  toString(): string {
    return `${this.name}: age ${this.age}`;
  }
}

/** The people of the example. */
export const FLINTSTONES: readonly Person[] = [new Person('Fred', 35), new Person('Wilma', 35), new Person('Pebbles', 2)];

/** Flink infers a POJO's type; here it is declared, so records arrive as Person instances, `toString` and all. */
export const PERSON = Types.POJO(Person, { name: Types.STRING, age: Types.NUMBER });

/** The people of the example, as a stream. */
export function flintstonesStream(env: StreamExecutionEnvironment): DataStream<Person> {
  return env.fromElements(...FLINTSTONES).returns(PERSON);
}

/** The example's filter: people aged 18 or more. */
export function adults(people: DataStream<Person>): DataStream<Person> {
  return people.filter((person) => person.age >= 18).returns(PERSON).name('adults');
}

export default function flintstones(env: StreamExecutionEnvironment): void {
  adults(flintstonesStream(env)).print();
  env.execute('Flintstones');
}

// The `zipcodes` package ships no type declarations; this covers the part the ZIP directory uses.
declare module 'zipcodes' {
  interface ZipCodeInfo {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }

  const zipcodes: {
    /** A 5-digit US ZIP, or the first three characters of a Canadian postal code. */
    lookup(zip: string | number): ZipCodeInfo | undefined;
    codes: Record<string, ZipCodeInfo>;
  };
  export = zipcodes;
}

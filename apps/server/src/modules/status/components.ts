/** A component of the status page: its public id and name, and which supplier it is (suppliers only). */
export interface StatusComponentDef {
  id: string;
  name: string;
  /** The pool member's name; never shown publicly unless the operator names the supplier. */
  supplier?: string;
}

/**
 * The page's components: the site (when this instance serves it), its API, payments, then each supplier
 * in pool order as "Supplier A", "Supplier B"... unless STATUS_SUPPLIER_NAMES (`sim-a=Acme,sim-b=Globex`) gives its public name.
 */
export function statusComponents(
  supplierNames: readonly string[],
  publicNames: string,
  /** An instance that serves no web app (API only, or not built yet) has no site to check. */
  servesWeb: boolean,
): StatusComponentDef[] {
  const named = new Map(
    publicNames
      .split(',')
      .map((pair) => pair.split('=').map((part) => part.trim()))
      .filter((pair): pair is [string, string] => pair.length === 2 && pair[0] !== '' && pair[1] !== ''),
  );
  return [
    ...(servesWeb ? [{ id: 'web', name: 'Website' }] : []),
    { id: 'api', name: 'API' },
    { id: 'payments', name: 'Payments' },
    ...supplierNames.map((supplier, index) => {
      const letter = String.fromCharCode(65 + (index % 26));
      return {
        id: `supplier-${letter.toLowerCase()}`,
        name: named.get(supplier) ?? `Supplier ${letter}`,
        supplier,
      };
    }),
  ];
}

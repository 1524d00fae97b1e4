import { defineGrid } from "~/components/data-grid/declare";
import { listCertificationMasters, pageOfCertificationMaster, type CertificationMasterRow } from "~/models/certifications.server";

/** Erfolgsarten: the kinds of certification the Erfolge dialog offers (ADMIN keeps them). */
export const certificationMastersGrid = defineGrid<CertificationMasterRow>({
  id: "certificationMasters",
  entity: "certificationMaster",
  area: "certificationMasters",
  mounts: { PARENT: { title: "Erfolgsarten" } },
  columns: [
    { id: "id", header: "Id", value: (m) => m.id, type: "number", hidden: true },
    { id: "name", header: "Name", value: (m) => m.name },
    { id: "isPersonCertification", header: "für Personen", value: (m) => m.isPersonCertification, type: "checkbox" },
    { id: "isDogCertification", header: "für Hunde", value: (m) => m.isDogCertification, type: "checkbox" },
    { id: "certificationCount", header: "Erfolge", value: (m) => m.certificationCount, type: "number" },
  ],
  defaultSort: { id: "name", descending: false },
  model: {
    list: (db, query) => listCertificationMasters(db, query),
    pageOf: (db, id, query) => pageOfCertificationMaster(db, id, query.sort, query.pageSize),
  },
  emptyText: "Keine Erfolgsarten",
});

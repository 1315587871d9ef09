import { mount } from "../endpoints/endpoint.ts";
import { SQL_ENDPOINTS } from "../endpoints/sql/sql.ts";

/** SQL for data teams (endpoints/sql/). */
export const sqlRoutes = mount(SQL_ENDPOINTS);

.name + "@" + .version + "\t" + .license + "\t" + .description
